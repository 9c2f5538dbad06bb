package transcript_test

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/transcript"
)

var update = flag.Bool("update", false, "rewrite the golden summaries in testdata/")

func parseFile(t *testing.T, name string) *transcript.Session {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := transcript.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

// TestParseFixtures reads realistic transcripts: session.jsonl as Claude
// Code 2.x writes it (one line per content block, a message written twice
// while streaming, a subagent's sidechain, slash-command and meta lines,
// a last line cut mid-write) and legacy.jsonl (Claude Code 1.0: whole
// messages per line, CRLF line ends, junk lines).
func TestParseFixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file string
		want transcript.Session
	}{
		{"session.jsonl", transcript.Session{
			ID: "5f1c2a8e-0b7d-4c1e-9a55-3e9d2c1b7a60", Cwd: "/workspace/checkout-service", GitBranch: "fix/webhook-retries",
			Start: at("2026-03-01T09:02:01.037Z"), End: at("2026-03-01T09:04:55.073Z"),
			Models:   []string{"claude-opus-4-6", "claude-haiku-4-5"},
			Messages: transcript.Messages{User: 4, Assistant: 9, ToolResults: 8, Subagent: 1},
			Usage:    transcript.Usage{InputTokens: 16, OutputTokens: 1917, CacheCreationInputTokens: 11821, CacheReadInputTokens: 145843},
			Requests: []string{
				"Fix the webhook retries in internal/webhooks: the payment provider retries a webhook 3 times and we charge the customer each time. Make the handler idempotent and add a test.",
				"Use the event id as the idempotency key in the billing call too, not only in memory.",
			},
			LastReply:    "Done. The handler now skips webhook events whose id it has already processed, and the billing call passes the event id as the idempotency key, so a retried webhook charges the customer once. TestRetriedWebhookChargesOnce covers it; go test ./... passes.",
			Tools:        []transcript.ToolUse{{"Bash", 2}, {"Edit", 2}, {"Grep", 1}, {"Read", 1}, {"Task", 1}, {"Write", 1}},
			ToolErrors:   1,
			FilesChanged: []string{"internal/webhooks/handler.go", "internal/webhooks/handler_test.go", "internal/billing/client.go"},
			FilesRead:    []string{"internal/webhooks/handler.go"},
			Lines:        33, Skipped: 1,
			Ignored: map[string]int{"summary": 1, "file-history-snapshot": 1, "system": 1, "progress": 1},
		}},
		{"legacy.jsonl", transcript.Session{
			ID: "0b8e1f52-7c4d-4a9e-b1f3-6d2a8c9e0f17", Cwd: "/home/dev/api",
			Start: at("2025-08-23T19:08:48.926Z"), End: at("2025-08-23T19:09:05Z"),
			Models:    []string{"claude-sonnet-4-20250514"},
			Messages:  transcript.Messages{User: 1, Assistant: 2, ToolResults: 1},
			Usage:     transcript.Usage{InputTokens: 2500, OutputTokens: 105, CacheReadInputTokens: 900},
			Requests:  []string{"Why does `make lint` fail on CI but not locally?"},
			LastReply: "CI pins golangci-lint 1.59 while you run 1.55: the new `copyloopvar` linter fails on CI only. Pin the same version in tools/go.mod.",
			Tools:     []transcript.ToolUse{{"Bash", 1}},
			Lines:     9, Skipped: 4,
		}},
		{"empty.jsonl", transcript.Session{}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			got := parseFile(t, tt.file)
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", *got, tt.want)
			}
		})
	}
}

// TestSummaryGolden checks the running summary of each fixture against
// testdata/<name>.summary.md (go test -update rewrites them).
func TestSummaryGolden(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"session", "legacy", "empty"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := parseFile(t, name+".jsonl").Summary()
			golden := filepath.Join("testdata", name+".summary.md")
			if *update {
				if err := os.WriteFile(golden, []byte(got+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got+"\n" != string(want) {
				t.Errorf("summary:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestSummaryIsBounded: a session with huge prompts, replies, many files
// and tools still yields a summary of at most MaxSummaryBytes, with the
// first request and the last reply cut, not dropped.
func TestSummaryIsBounded(t *testing.T) {
	t.Parallel()
	s := transcript.Session{
		ID: strings.Repeat("i", 500), Cwd: "/w",
		Requests:  []string{"first " + strings.Repeat("é", 5000)},
		LastReply: "last " + strings.Repeat("word ", 5000),
	}
	for i := range 40 {
		s.Requests = append(s.Requests, strings.Repeat("later ", 100))
		s.FilesChanged = append(s.FilesChanged, strings.Repeat("d/", 100)+"f.go")
		s.FilesRead = append(s.FilesRead, "r.go"+strings.Repeat("x", i))
		s.Tools = append(s.Tools, transcript.ToolUse{Name: strings.Repeat("T", 100), Count: 40 - i})
	}
	got := s.Summary()
	if len(got) > transcript.MaxSummaryBytes || !utf8.ValidString(got) {
		t.Fatalf("summary is %d bytes (max %d), valid UTF-8 %v", len(got), transcript.MaxSummaryBytes, utf8.ValidString(got))
	}
	for _, want := range []string{"\nRequest: first é", "(and 35 before them)", "\nTools: T", " and 38 more.\nFiles read: r.go, ", " and 22 more.\nLast reply: last word"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
}

// TestParseOversizedLine: a line over MaxLineBytes is skipped without
// holding it, and the lines after it are read.
func TestParseOversizedLine(t *testing.T) {
	t.Parallel()
	big := `{"type":"user","message":{"role":"user","content":"` + strings.Repeat("x", transcript.MaxLineBytes) + `"}}`
	in := big + "\n" + `{"type":"user","message":{"role":"user","content":"after the big one"}}` + "\n"
	s, err := transcript.Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if s.Lines != 2 || s.Skipped != 1 || len(s.Requests) != 1 || s.Requests[0] != "after the big one" {
		t.Errorf("lines %d, skipped %d, requests %q", s.Lines, s.Skipped, s.Requests)
	}
}

func TestParseReadError(t *testing.T) {
	t.Parallel()
	boom := errors.New("disk on fire")
	_, err := transcript.Parse(io.MultiReader(strings.NewReader(`{"type":"user"}`+"\n"), iotest.ErrReader(boom)))
	if !errors.Is(err, boom) {
		t.Errorf("got %v, want the read error", err)
	}
}

// FuzzParse: any input parses without error or panic, the counts add up,
// and the summary is valid UTF-8 within its bound.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"session.jsonl", "legacy.jsonl"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		for _, l := range bytes.Split(b, []byte("\n"))[:8] {
			f.Add(l)
		}
	}
	f.Add([]byte(`{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","name":"Edit","input":{"file_path":"/w/a\nb"}}],"usage":{"input_tokens":-1}},"cwd":"/w"}`))
	f.Add([]byte("{\"type\":\"user\",\"message\":{\"content\":\"<system-reminder>x\xff\"}}\r\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := transcript.Parse(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		ignored := 0
		for _, n := range s.Ignored {
			ignored += n
		}
		m := s.Messages
		if s.Skipped+ignored > s.Lines || m.User < 0 || m.Assistant+m.Subagent > s.Lines || s.Usage.Total() < 0 {
			t.Fatalf("counts do not add up: %+v", s)
		}
		sum := s.Summary()
		if len(sum) > transcript.MaxSummaryBytes || !utf8.ValidString(sum) {
			t.Fatalf("summary: %d bytes, valid %v", len(sum), utf8.ValidString(sum))
		}
		for _, line := range strings.Split(sum, "\n") {
			if strings.HasPrefix(line, "#") {
				t.Fatalf("summary line %q would read as a Markdown heading", line)
			}
		}
	})
}
