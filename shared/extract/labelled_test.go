package extract_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/extract"
)

// labelled is one raw model answer of testdata/answers and what a careful
// reader takes from it.
type labelled struct {
	name, style string
	answer      string
	want        wantReading
}

// wantReading is the expected reading of an answer: exactly these
// learnings (type, content, typed fields), summary and success, and the
// skipped items (content, and the start of the reason); or an error.
type wantReading struct {
	Error     bool                `json:"error"`
	Success   bool                `json:"success"`
	Summary   string              `json:"summary"`
	Learnings []agentmem.Learning `json:"learnings"`
	Skipped   []struct {
		Content string `json:"content"`
		Reason  string `json:"reason"`
	} `json:"skipped"`
}

// readLabelled reads the answers of one part of the set. A file is a
// header ("style: ...", "note: ..."), then "-- answer --" and the raw
// answer, then "-- want --" and the expected reading as JSON.
func readLabelled(t *testing.T, part string) []labelled {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "answers", part, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no labelled answers in testdata/answers/%s: %v", part, err)
	}
	var out []labelled
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		head, rest, ok1 := strings.Cut(string(raw), "\n-- answer --\n")
		answer, want, ok2 := strings.Cut(rest, "\n-- want --\n")
		if !ok1 || !ok2 {
			t.Fatalf("%s: want a header, \"-- answer --\" and \"-- want --\"", f)
		}
		l := labelled{name: strings.TrimSuffix(filepath.Base(f), ".txt"), answer: answer}
		for _, line := range strings.Split(head, "\n") {
			if s, ok := strings.CutPrefix(line, "style: "); ok {
				l.style = strings.TrimSpace(s)
			}
		}
		if l.style == "" {
			t.Fatalf("%s: no style line", f)
		}
		dec := json.NewDecoder(strings.NewReader(want))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l.want); err != nil {
			t.Fatalf("%s: want: %v", f, err)
		}
		out = append(out, l)
	}
	return out
}

// mismatch compares a parse with its label and says what differs ("" when
// the answer was read exactly).
func mismatch(w wantReading, res extract.Result, err error) string {
	if w.Error || err != nil {
		if w.Error && err != nil {
			return ""
		}
		return fmt.Sprintf("error: got %v, want error %v", err, w.Error)
	}
	var diffs []string
	if res.Success != w.Success {
		diffs = append(diffs, fmt.Sprintf("success: got %v, want %v", res.Success, w.Success))
	}
	if res.Summary != w.Summary {
		diffs = append(diffs, fmt.Sprintf("summary:\n\tgot  %q\n\twant %q", res.Summary, w.Summary))
	}
	if got, want := learningLines(res.Learnings), learningLines(w.Learnings); got != want {
		diffs = append(diffs, fmt.Sprintf("learnings:\n\tgot  %s\n\twant %s", got, want))
	}
	var gotSkipped, wantSkipped []string
	for _, s := range res.Skipped {
		gotSkipped = append(gotSkipped, fmt.Sprintf("%q: %s", s.Content, s.Reason))
	}
	ok := len(res.Skipped) == len(w.Skipped)
	for i, s := range w.Skipped {
		wantSkipped = append(wantSkipped, fmt.Sprintf("%q: %s…", s.Content, s.Reason))
		if ok && (res.Skipped[i].Content != s.Content || !strings.HasPrefix(res.Skipped[i].Reason, s.Reason)) {
			ok = false
		}
	}
	if !ok {
		diffs = append(diffs, fmt.Sprintf("skipped:\n\tgot  %v\n\twant %v", gotSkipped, wantSkipped))
	}
	return strings.Join(diffs, "\n")
}

// learningLines prints learnings field by field, for comparison and
// messages.
func learningLines(ls []agentmem.Learning) string {
	var b strings.Builder
	for _, l := range ls {
		c := "-"
		if l.Confidence != nil {
			c = fmt.Sprint(math.Round(*l.Confidence*1000) / 1000)
		}
		fmt.Fprintf(&b, "\n\t  [%s] %q rationale=%q status=%q trigger=%q context=%q solution=%q confidence=%s",
			l.Type, l.Content, l.Rationale, l.Status, l.Trigger, l.Context, l.Solution, c)
	}
	return b.String()
}

// TestLabelledAnswers parses every labelled answer and reports the share
// read exactly (learnings with their typed fields, summary, success and
// skipped items), overall and per model style, for the tuned part (the
// answers the parser was developed against) and the held-out part
// (written before tuning and never tuned on). The figures are in
// docs/BENCHMARKS.md; run with -v to see them.
func TestLabelledAnswers(t *testing.T) {
	t.Parallel()
	for _, part := range []struct {
		name string
		min  float64 // the share that must be read exactly
	}{
		{"tuned", 0.95},
		{"heldout", 0.90},
	} {
		t.Run(part.name, func(t *testing.T) {
			set := readLabelled(t, part.name)
			type tally struct{ exact, total int }
			byStyle := map[string]*tally{}
			exact := 0
			var failures []string
			for _, l := range set {
				res, err := extract.Parse(l.answer)
				d := mismatch(l.want, res, err)
				s := byStyle[l.style]
				if s == nil {
					s = &tally{}
					byStyle[l.style] = s
				}
				s.total++
				if d == "" {
					s.exact++
					exact++
				} else {
					failures = append(failures, l.name+": "+d)
				}
			}
			styles := make([]string, 0, len(byStyle))
			for s := range byStyle {
				styles = append(styles, s)
			}
			sort.Strings(styles)
			var per []string
			for _, s := range styles {
				per = append(per, fmt.Sprintf("%s %d/%d", s, byStyle[s].exact, byStyle[s].total))
			}
			share := float64(exact) / float64(len(set))
			t.Logf("%s: %d of %d answers read exactly (%.1f%%); per style: %s", part.name, exact, len(set), 100*share, strings.Join(per, ", "))
			for _, f := range failures {
				t.Logf("not exact: %s", f)
			}
			if share < part.min {
				t.Errorf("%s: %.1f%% read exactly, want at least %.0f%%", part.name, 100*share, 100*part.min)
			}
		})
	}
}

// TestLabelledSetSize keeps the set as large as promised: at least 60
// tuned answers and a held-out part, in several model styles each.
func TestLabelledSetSize(t *testing.T) {
	t.Parallel()
	for part, want := range map[string]int{"tuned": 60, "heldout": 20} {
		set := readLabelled(t, part)
		styles := map[string]bool{}
		for _, l := range set {
			styles[l.style] = true
		}
		if len(set) < want || len(styles) < 6 {
			t.Errorf("%s: %d answers in %d styles, want at least %d in 6", part, len(set), len(styles), want)
		}
	}
}
