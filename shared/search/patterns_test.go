package search

import (
	"math"
	"slices"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
)

func conf(c float64) *float64 { return &c }

func pattern(id, trigger, solution string, c float64) agentmem.Memory {
	return agentmem.Memory{ID: id, Type: agentmem.TypePattern, Content: trigger + ": " + solution,
		Trigger: trigger, Solution: solution, Confidence: conf(c)}
}

func TestSuggestPatterns(t *testing.T) {
	t.Parallel()
	pats := []agentmem.Memory{
		pattern("flaky", "a test is flaky in CI", "run it with -count=50 -race and look for shared state", 0.9),
		pattern("flaky-low", "a test is flaky", "retry the pipeline", 0.5),
		pattern("migrate", "adding a database migration", "write the down migration first and test it", 0.8),
		pattern("webhook", "handling webhooks", "verify the signature before parsing", 0.95),
		{ID: "note", Type: agentmem.TypeNote, Content: "a flaky test in CI", Confidence: conf(1)},
		{ID: "nil", Type: agentmem.TypePattern, Trigger: "flaky test"},
		pattern("exact", "the threshold itself", "flaky test", 0.7),
	}
	tests := []struct {
		name  string
		task  string
		min   float64
		limit int
		want  []string
	}{
		{"relevant and confident", "fix the flaky test in CI", 0.7, 10, []string{"flaky", "migrate"}},
		// flaky-low's "pipeline" is a term related to "CI" (related.go).
		{"threshold lowered", "fix the flaky test in CI", 0.4, 10, []string{"flaky", "flaky-low", "exact", "migrate"}},
		{"other task", "add a migration for the orders table", 0.7, 10, []string{"migrate"}},
		{"no relevant pattern", "upgrade react", 0.7, 10, nil},
		{"empty task lists by confidence", "", 0.7, 10, []string{"webhook", "flaky", "migrate"}},
		{"limit", "", 0.7, 2, []string{"webhook", "flaky"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := hitIDs(SuggestPatterns(tt.task, pats, tt.min, tt.limit))
			if !slices.Equal(got, tt.want) {
				t.Errorf("SuggestPatterns(%q, %v) = %v, want %v", tt.task, tt.min, got, tt.want)
			}
		})
	}
}

// TestSuggestPatternsWithoutWords: patterns whose text has no token at
// all (one letter, punctuation) are no match for a task, and no panic.
func TestSuggestPatternsWithoutWords(t *testing.T) {
	t.Parallel()
	pats := []agentmem.Memory{pattern("x", "t", "x", 0.9), pattern("dash", "-", "?", 0.95)}
	for _, task := range []string{"fix ci", "t", ""} {
		got := hitIDs(SuggestPatterns(task, pats, 0.5, 5))
		want := []string(nil)
		if task != "fix ci" {
			want = []string{"dash", "x"} // a task without words lists by confidence
		}
		if !slices.Equal(got, want) {
			t.Errorf("SuggestPatterns(%q) = %v, want %v", task, got, want)
		}
	}
	if got := Lexical("fix ci", []Doc{{ID: "a", Text: "-"}, {ID: "b", Text: "x"}}); len(got) != 0 {
		t.Errorf("Lexical over texts without words = %v, want none", got)
	}
}

func TestSuggestPatternsScore(t *testing.T) {
	t.Parallel()
	pats := []agentmem.Memory{
		pattern("a", "deploying lambda", "use cdk deploy --hotswap in dev", 0.8),
		pattern("b", "deploying lambda", "use cdk deploy --hotswap in dev", 0.9),
	}
	got := SuggestPatterns("deploying a lambda", pats, 0.7, 0)
	if len(got) != 2 || got[0].ID != "b" || math.Abs(got[0].Score-0.9) > 1e-9 || math.Abs(got[1].Score-0.8) > 1e-9 {
		t.Errorf("SuggestPatterns = %v, want b (0.9) then a (0.8)", got)
	}
}

func TestSamePattern(t *testing.T) {
	t.Parallel()
	base := pattern("1", "a Go test is flaky under -race", "look for shared state between parallel tests", 0.6)
	tests := []struct {
		name string
		b    agentmem.Memory
		want bool
	}{
		{"identical", base, true},
		{"case, punctuation and inflection", pattern("2", "A go test is FLAKY under race!", "Look for shared states between parallel tests.", 0.6), true},
		{"different solution", pattern("3", "a Go test is flaky under -race", "add a sleep before the assertion", 0.6), false},
		{"different trigger", pattern("4", "a Terraform plan shows drift", "look for shared state between parallel tests", 0.6), false},
		{"content only, same", agentmem.Memory{Type: agentmem.TypePattern, Content: "Use table-driven tests"}, false},
	}
	for _, tt := range tests {
		if got := SamePattern(base, tt.b); got != tt.want {
			t.Errorf("%s: SamePattern = %v, want %v", tt.name, got, tt.want)
		}
	}
	a := agentmem.Memory{Type: agentmem.TypePattern, Content: "Use table-driven tests."}
	b := agentmem.Memory{Type: agentmem.TypePattern, Content: "use table driven tests"}
	if !SamePattern(a, b) {
		t.Errorf("SamePattern on content = false, want true")
	}
}

func TestJaccard(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want float64
	}{
		{"retry webhooks", "webhook retries", 1},
		{"retry webhooks", "retry payments", 1.0 / 3},
		{"", "", 1},
		{"the", "of", 0},
		{"", "retry", 0},
	}
	for _, tt := range tests {
		if got := Jaccard(tt.a, tt.b); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Jaccard(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestRaiseConfidence(t *testing.T) {
	t.Parallel()
	tests := []struct{ old, want float64 }{
		{0, 0.3},
		{0.5, 0.65},
		{0.65, 0.755},
		{0.98, 0.986},
		{0.986, 0.99},
		{0.99, 0.99},
		{1, 1},
		{-1, 0.3},
		{2, 1},
		{math.NaN(), 0.3},
	}
	for _, tt := range tests {
		if got := RaiseConfidence(tt.old); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("RaiseConfidence(%v) = %v, want %v", tt.old, got, tt.want)
		}
	}
}

func TestNormalizeText(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"  Use  pgx.\n", "use pgx"},
		{"Use pgx (not lib/pq)!", "use pgx (not lib/pq"},
		{"\"Quoted\"", "quoted"},
		{"Tabs\tand\nnewlines", "tabs and newlines"},
		{"...", ""},
	}
	for _, tt := range tests {
		if got := NormalizeText(tt.in); got != tt.want {
			t.Errorf("NormalizeText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
