package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/markdown"
	"github.com/agentmem/agentmem/shared/transcript"
)

// TrimmedContextTitle is the title of the daily record context flush
// writes: the day renders it as "## Trimmed Context (HH:MM)".
const TrimmedContextTitle = "Trimmed Context"

// maxHookInputBytes bounds the Claude Code hook input read by --hook.
const maxHookInputBytes = 1 << 20

func init() {
	Register(&Command{
		Name: "context", Group: GroupPipeline,
		Summary:     "flush a Claude Code session's context (messages, tokens, a running summary) to the daily log",
		Description: `The context tier (the short-term memory tier) is the live session. context flush reads the session's Claude Code transcript and appends its digest to the agent's daily log, where Deep Dream later consolidates it into long-term memory.`,
		Examples: []string{
			"agentmem context flush --agent nori --project checkout-service --transcript ~/.claude/projects/-workspace/5f1c2a8e.jsonl",
		},
		Subcommands: []*Command{{
			Name: "flush", Pipeline: true, Needs: NeedsAgentProject,
			Fallback: "the session's context was not saved to the daily log",
			Summary:  "append a digest of a Claude Code session transcript to the daily log as \"Trimmed Context\"",
			Description: `Reads a Claude Code session transcript (the JSONL file under ~/.claude/projects/; --transcript FILE, - for standard input, or --hook to take its path from the JSON a Claude Code hook gets on standard input) and computes the session's context tier: its messages by role (user prompts, assistant messages counted once per message id, tool results, subagent messages), its token usage summed from the usage fields (input, output, cache write, cache read), and a running summary: the first request and the last few after it, the tools used, the files changed and read, and the last reply, bounded to 4 KiB. Lines of other types and malformed lines are tolerated; the note says how many were skipped.

The digest is appended to the agent's daily log as a record titled "Trimmed Context", so the day shows "## Trimmed Context (HH:MM)". --print-summary then prints what this flush appended, as the day renders it, on standard output, for a caller to put back into its message list (a context summary callback); agentmem daily show prints the whole day. --dry-run prints the digest without sending it.

As a Claude Code hook (PreCompact, SessionEnd), with AGENTMEM_AGENT and AGENTMEM_PROJECT set:
  {"hooks": {"PreCompact": [{"hooks": [{"type": "command", "command": "agentmem context flush --hook"}]}]}}

Best effort: on any failure one warning line goes to stderr and the exit status is 0; --strict exits non-zero instead.`,
			Examples: []string{
				"agentmem context flush --agent nori --project checkout-service --transcript \"$TRANSCRIPT\" --print-summary",
				"agentmem context flush --transcript session.jsonl --dry-run",
				"agentmem context flush --hook    # in a Claude Code PreCompact or SessionEnd hook",
			},
			New: func() Runner { return &flushCommand{} },
		}},
	})
}

type flushCommand struct {
	transcript                              string
	hook, printSummary, dryRun, quiet, json bool
}

func (c *flushCommand) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.transcript, "transcript", "", "the session's transcript `FILE` (JSONL), - for standard input")
	fs.BoolVar(&c.hook, "hook", false, "read a Claude Code hook's input on standard input and flush its transcript_path")
	fs.BoolVar(&c.printSummary, "print-summary", false, "print what this flush appended to the daily log (for the caller's message list)")
	fs.BoolVar(&c.dryRun, "dry-run", false, "print the digest and send nothing")
	JSONFlag(fs, &c.json)
	fs.BoolVar(&c.quiet, "quiet", false, "print no note on success")
}

// flushed is the --json answer of context flush.
type flushed struct {
	Context *transcript.Session   `json:"context"`
	Digest  string                `json:"digest"`
	Record  *agentmem.DailyRecord `json:"record,omitempty"`
	// Appended is what this flush appended to the daily log, as the day
	// renders it, with --print-summary.
	Appended string `json:"appended,omitempty"`
}

func (c *flushCommand) Run(ctx context.Context, in *Invocation) error {
	if err := in.NoArgs("the transcript goes in --transcript FILE"); err != nil {
		return err
	}
	var scope Scope
	if !c.dryRun {
		var err error
		if scope, err = in.Scope(); err != nil {
			return err
		}
	}
	agent, project := scope.Agent, scope.Project
	path, err := c.transcriptPath(in)
	if err != nil {
		return err
	}
	s, err := readTranscript(in, path)
	if err != nil {
		return err
	}
	if s.Messages.User+s.Messages.Assistant == 0 {
		return fmt.Errorf("transcript %s holds no messages (%d lines, %d malformed): nothing to flush", path, s.Lines, s.Skipped)
	}
	out := flushed{Context: s, Digest: s.Summary()}
	if c.dryRun {
		if c.json {
			return writeJSON(in.Stdout, out)
		}
		in.Printf("%s\n", out.Digest)
		return nil
	}

	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	rec, err := client.AppendDaily(ctx, agent, agentmem.DailyInput{ProjectID: project, Title: TrimmedContextTitle, Content: out.Digest})
	if err != nil {
		return err
	}
	out.Record = &rec
	if c.printSummary {
		out.Appended = appendedBlock(rec)
	}
	if !c.quiet {
		in.Notef("context flush: %s; appended %q to the daily log of %s in %s for %s",
			contextNote(s), TrimmedContextTitle+" ("+clockOf(rec.At)+")", agent, project, rec.Date())
	}
	switch {
	case c.json:
		return writeJSON(in.Stdout, out)
	case c.printSummary:
		in.PrintDoc(out.Appended)
	}
	return nil
}

// appendedBlock is the block a record adds to its day's daily log as the
// day renders it ("## <title> (HH:MM)" and the content), without the
// day's heading or its other records.
func appendedBlock(rec agentmem.DailyRecord) string {
	day := markdown.DailyFile(rec.Date(), []agentmem.DailyRecord{rec})
	if i := strings.Index(day, "\n## "); i >= 0 {
		return day[i+1:]
	}
	return day
}

// transcriptPath returns the transcript to read: --transcript, or with
// --hook the transcript_path of the hook input on standard input.
func (c *flushCommand) transcriptPath(in *Invocation) (string, error) {
	switch {
	case c.hook && c.transcript != "":
		return "", Usagef("--hook and --transcript do not go together")
	case c.transcript != "":
		return c.transcript, nil
	case !c.hook:
		return "", Usagef("--transcript FILE (or --hook in a Claude Code hook) is required")
	}
	var hook struct {
		SessionID      string `json:"session_id"`
		TranscriptPath string `json:"transcript_path"`
		HookEventName  string `json:"hook_event_name"`
	}
	raw, err := io.ReadAll(io.LimitReader(in.Stdin, maxHookInputBytes))
	if err != nil {
		return "", fmt.Errorf("read the hook input: %w", err)
	}
	if err := json.Unmarshal(raw, &hook); err != nil {
		return "", Usagef("--hook: standard input is not a Claude Code hook's JSON input: %v", err)
	}
	if hook.TranscriptPath == "" {
		return "", Usagef("--hook: the hook input has no transcript_path")
	}
	return expandHome(hook.TranscriptPath), nil
}

// readTranscript parses the transcript at path ("-": standard input).
func readTranscript(in *Invocation, path string) (*transcript.Session, error) {
	var r io.Reader = in.Stdin
	if path == "-" {
		if in.StdinIsTerminal() {
			return nil, Usagef("--transcript is - but standard input is a terminal: pipe the transcript in")
		}
	} else {
		f, err := os.Open(expandHome(path))
		if err != nil {
			return nil, fmt.Errorf("read the transcript: %w", err)
		}
		defer f.Close()
		if info, err := f.Stat(); err == nil && info.IsDir() {
			return nil, fmt.Errorf("read the transcript: %s is a directory (give the session's .jsonl file)", path)
		}
		r = f
	}
	s, err := transcript.Parse(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// contextNote is the one-line account of a parsed session.
func contextNote(s *transcript.Session) string {
	id := s.ID
	if len(id) > 8 {
		id = id[:8]
	}
	var parts []string
	if id != "" {
		parts = append(parts, "session "+id)
	}
	m := s.Messages
	parts = append(parts, fmt.Sprintf("%d messages (%d user, %d assistant, %d tool results)", m.User+m.Assistant+m.ToolResults, m.User, m.Assistant, m.ToolResults))
	parts = append(parts, fmt.Sprintf("%d tokens", s.Usage.Total()))
	ignored := 0
	for _, n := range s.Ignored {
		ignored += n
	}
	if s.Skipped > 0 {
		parts = append(parts, fmt.Sprintf("%d malformed line%s skipped", s.Skipped, plural(s.Skipped)))
	}
	if ignored > 0 {
		parts = append(parts, fmt.Sprintf("%d line%s of other types ignored", ignored, plural(ignored)))
	}
	return strings.Join(parts, ", ")
}

// expandHome replaces a leading "~/" with the home directory.
func expandHome(path string) string {
	rest, ok := strings.CutPrefix(path, "~/")
	if !ok {
		return path
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return path
	}
	return filepath.Join(home, rest)
}
