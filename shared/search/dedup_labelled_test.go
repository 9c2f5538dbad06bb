package search

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// labelledPair is one line of testdata/dedup/*.jsonl: a stored memory
// (a), an incoming one (b), and whether a person would call b a repeat of
// a.
type labelledPair struct {
	Kind   string          `json:"kind"`
	Repeat bool            `json:"repeat"`
	A      agentmem.Memory `json:"a"`
	B      agentmem.Memory `json:"b"`
	line   int
}

func readPairs(t testing.TB, name string) []labelledPair {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "dedup", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelledPair
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var p labelledPair
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("%s:%d: %v", name, n, err)
		}
		p.line = n
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// oldRepeat is the rule before issue 11, for the comparison in
// docs/BENCHMARKS.md: extraction skipped a learning whose content equalled
// a stored one's after NormalizeText, and patterns merged when their
// trigger and solution terms overlapped by 80% (Jaccard).
func oldRepeat(a, b agentmem.Memory) bool {
	if a.Type == agentmem.TypePattern && b.Type == agentmem.TypePattern {
		ta, tb := a.Trigger+"\n"+a.Solution, b.Trigger+"\n"+b.Solution
		if strings.TrimSpace(a.Trigger+a.Solution) == "" && strings.TrimSpace(b.Trigger+b.Solution) == "" {
			ta, tb = a.Content, b.Content
		}
		return Jaccard(ta, tb) >= 0.8
	}
	return NormalizeText(a.Content) == NormalizeText(b.Content)
}

// tally counts one rule's answers on a set of pairs.
type tally struct {
	repeats, repeatsCaught, news, newsKept int
	misses                                 []string
	byKind                                 map[string][2]int // right, total
}

func score(pairs []labelledPair, rule func(a, b agentmem.Memory) bool) tally {
	tl := tally{byKind: map[string][2]int{}}
	for _, p := range pairs {
		got := rule(p.A, p.B)
		k := tl.byKind[p.Kind]
		k[1]++
		if got == p.Repeat {
			k[0]++
		} else {
			tl.misses = append(tl.misses, fmt.Sprintf("line %d (%s): got repeat=%v, want %v\n  a: %q\n  b: %q", p.line, p.Kind, got, p.Repeat, p.A.Content, p.B.Content))
		}
		tl.byKind[p.Kind] = k
		if p.Repeat {
			tl.repeats++
			if got {
				tl.repeatsCaught++
			}
		} else {
			tl.news++
			if !got {
				tl.newsKept++
			}
		}
	}
	return tl
}

func (tl tally) String() string {
	kinds := make([]string, 0, len(tl.byKind))
	for k := range tl.byKind {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	var b strings.Builder
	fmt.Fprintf(&b, "repeats skipped %d/%d, new learnings kept %d/%d; per kind:", tl.repeatsCaught, tl.repeats, tl.newsKept, tl.news)
	for _, k := range kinds {
		fmt.Fprintf(&b, " %s %d/%d", k, tl.byKind[k][0], tl.byKind[k][1])
	}
	return b.String()
}

// TestLabelledPairs measures Repeat on the labelled pairs of
// testdata/dedup: tuned.jsonl (the rules were developed against it) and
// heldout.jsonl (written with it, before the matcher, and not tuned on).
// It logs the figures of docs/BENCHMARKS.md, the rule before issue 11's
// beside them.
func TestLabelledPairs(t *testing.T) {
	newRule := func(a, b agentmem.Memory) bool { return Repeat(a, b).Kind != MatchNone }
	for _, set := range []struct {
		file                string
		minRepeats, minNews float64
	}{
		{"tuned.jsonl", 1, 1},
		{"heldout.jsonl", 0.9, 0.9},
	} {
		t.Run(set.file, func(t *testing.T) {
			pairs := readPairs(t, set.file)
			got := score(pairs, newRule)
			old := score(pairs, oldRepeat)
			t.Logf("%s: %d pairs\n  now:    %s\n  before: %s", set.file, len(pairs), got, old)
			for _, m := range got.misses {
				t.Logf("miss: %s", m)
			}
			if r := float64(got.repeatsCaught) / float64(got.repeats); r < set.minRepeats {
				t.Errorf("repeats skipped: %d of %d, want at least %.0f%%", got.repeatsCaught, got.repeats, 100*set.minRepeats)
			}
			if r := float64(got.newsKept) / float64(got.news); r < set.minNews {
				t.Errorf("new learnings kept: %d of %d, want at least %.0f%%", got.newsKept, got.news, 100*set.minNews)
			}
		})
	}
}
