package search

import (
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
)

func TestCanonical(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"  Run `make test`, then push.  ", "run make test then push"},
		{"run make test. Then push", "run make test then push"},
		{"- Use pgx (not lib/pq)!", "use pgx not lib/pq"},
		{"1. **Never** commit _dist/_", "never commit dist/"},
		{"Call os.Getenv in v1.2.3 with -timeout=20m", "call os.getenv in v1.2.3 with -timeout=20m"},
		{"The “quoted” ‘words’ don’t change", "the quoted words don't change"},
		{"snake_case_name and kebab-case", "snake_case_name and kebab-case"},
		{"X — Y – Z - W", "x y z w"},
		{"key: value; other: thing", "key value other thing"},
		{"a:b stays, as does http://x.y/z", "a:b stays as does http://x.y/z"},
	}
	for _, tt := range tests {
		if got := Canonical(tt.in); got != tt.want {
			t.Errorf("Canonical(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFlagName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"-u", "-u"}, {"--force", "--force"}, {"-timeout=20m", "-timeout"}, {"-Count", "-count"},
		{"-1", ""}, {"---x", ""}, {"-", ""}, {"word", ""}, {"--", ""},
	}
	for _, tt := range tests {
		if got := flagName(tt.in); got != tt.want {
			t.Errorf("flagName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRepeatKinds(t *testing.T) {
	f := func(s string) agentmem.Memory { return agentmem.Memory{Type: agentmem.TypeFinding, Content: s} }
	tests := []struct {
		name             string
		stored, incoming agentmem.Memory
		want             MatchKind
	}{
		{"same text", f("Run `make test`."), f("run make test"), MatchSame},
		{"near: a filler added", f("Run make test before pushing."), f("Always run make test before pushing."), MatchNear},
		{"near: a word added", f("Run make test before pushing changes upstream"), f("Run make test before pushing all changes upstream today"), MatchNear},
		{"incoming leaves out a detail", f("Integration tests need DynamoDB Local on port 8000."), f("Integration tests need DynamoDB Local."), MatchNear},
		{"incoming adds a number", f("Integration tests need DynamoDB Local."), f("Integration tests need DynamoDB Local on port 8000."), MatchNone},
		{"a number replaced by one the text already has", f("writer 1 memory 0"), f("writer 1 memory 1"), MatchNone},
		{"a version replaced by one the text already has", f("Pin Node 20 in CI and Node 18 in the Lambda runtime"), f("Pin Node 20 in CI and Node 20 in the Lambda runtime"), MatchNone},
		{"a flag replaced by one the text already has", f("Use -race here and -short in CI"), f("Use -race here and -race in CI"), MatchNone},
		{"two numbers swapped", f("writer 0 memory 3"), f("writer 3 memory 0"), MatchNone},
		{"clauses reordered, each value with its neighbour", f("CI uses Node 20 and Lambda uses Node 18"), f("Lambda uses Node 18 and CI uses Node 20"), MatchNear},
		{"a detail left out next to a salient term", f("Use the v2 Stripe API for refunds"), f("Use the Stripe API for refunds"), MatchNear},
		{"stored negation left out", f("Never push to main."), f("Push to main."), MatchNone},
		{"empty incoming", f("Push to main."), f("  "), MatchNone},
		{"punctuation only", f("..."), f("!!!"), MatchSame},
		{"punctuation only, not the same", f("..."), f("-- x"), MatchNone},
		{"decision vs finding", agentmem.Memory{Type: agentmem.TypeDecision, Content: "Use pgx"}, f("Use pgx"), MatchNone},
		{"note vs learning", agentmem.Memory{Type: agentmem.TypeNote, Content: "Use pgx"}, agentmem.Memory{Type: agentmem.TypeLearning, Content: "use pgx."}, MatchSame},
		{"blocker status default", agentmem.Memory{Type: agentmem.TypeBlocker, Content: "No Docker"}, agentmem.Memory{Type: agentmem.TypeBlocker, Content: "No Docker", Status: "open"}, MatchSame},
		{"pattern without fields vs with", agentmem.Memory{Type: agentmem.TypePattern, Content: "x"}, agentmem.Memory{Type: agentmem.TypePattern, Content: "x", Trigger: "t", Solution: "s"}, MatchNone},
		{"pattern context added", agentmem.Memory{Type: agentmem.TypePattern, Trigger: "t happens", Solution: "do s"},
			agentmem.Memory{Type: agentmem.TypePattern, Trigger: "t happens", Solution: "do s", Context: "in CI"}, MatchNone},
		{"pattern context left out", agentmem.Memory{Type: agentmem.TypePattern, Trigger: "t happens", Solution: "do s", Context: "in CI"},
			agentmem.Memory{Type: agentmem.TypePattern, Trigger: "t happens", Solution: "do s"}, MatchSame},
	}
	for _, tt := range tests {
		got := Repeat(tt.stored, tt.incoming)
		if got.Kind != tt.want {
			t.Errorf("%s: Repeat = %+v, want kind %q", tt.name, got, tt.want)
		}
		if got.Kind == MatchNone && got.Similarity != 0 || got.Kind == MatchSame && got.Similarity != 1 {
			t.Errorf("%s: similarity %v does not fit kind %q", tt.name, got.Similarity, got.Kind)
		}
	}
}

func TestDedupFindPrefersSameThenOldest(t *testing.T) {
	mem := func(id, at, content string) agentmem.Memory {
		return agentmem.Memory{ID: id, CreatedAt: at, Type: agentmem.TypeFinding, Content: content}
	}
	d := NewDedup([]agentmem.Memory{
		mem("near-new", "2026-01-03", "Always run make test before pushing changes upstream"),
		mem("same-new", "2026-01-02", "Run make test before pushing changes upstream."),
		mem("same-old", "2026-01-01", "run `make test` before pushing changes upstream"),
		mem("other", "2025-12-31", "Deploy with cdk deploy"),
	})
	got, m, ok := d.Find(mem("", "", "Run make test before pushing changes upstream"))
	if !ok || got.ID != "same-old" || m.Kind != MatchSame {
		t.Errorf("Find = %s %+v %v, want same-old, same", got.ID, m, ok)
	}
	if _, _, ok := d.Find(mem("", "", "Run make lint before pushing changes upstream")); ok {
		t.Errorf("Find of another command found a repeat")
	}
	d.Add(mem("batch", "2026-01-04", "Run make lint before pushing changes upstream"))
	if got, _, ok := d.Find(mem("", "", "run make lint before pushing changes upstream!")); !ok || got.ID != "batch" {
		t.Errorf("Find after Add = %s %v, want batch", got.ID, ok)
	}
	if d.Len() != 5 {
		t.Errorf("Len = %d, want 5", d.Len())
	}
}

// FuzzRepeat checks that any memory repeats itself (unless it is a
// session note or has no words), and that comparing never panics.
func FuzzRepeat(f *testing.F) {
	for _, s := range []string{"Run `make test`.", "-timeout 20m", "don't", "“x”", "- 1. **a**", "\x00", "é_é"} {
		f.Add(s, "other text")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		m := agentmem.Memory{Type: agentmem.TypeFinding, Content: a}
		if r := Repeat(m, m); r.Kind != MatchSame && Canonical(a) != "" {
			t.Errorf("Repeat(%q, itself) = %+v", a, r)
		}
		_ = Repeat(m, agentmem.Memory{Type: agentmem.TypeFinding, Content: b})
	})
}
