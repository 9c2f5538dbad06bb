package support_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream/support"
)

// sources of a small note-taking service, used by the tests below.
var sources = []support.Source{
	{ID: "m1", Kind: support.KindMemory, Type: agentmem.TypeFinding, Text: "The search worker rebuilds the Meilisearch index every 6 hours; the API reads it"},
	{ID: "m2", Kind: support.KindMemory, Type: agentmem.TypeDecision, Text: "Use `pnpm run lint:fix` before committing", Rationale: "CI fails on formatting errors"},
	{ID: "m3", Kind: support.KindMemory, Type: agentmem.TypeBlocker, Status: agentmem.StatusOpen, Text: "Uploads over 25 MB fail behind the nginx proxy"},
	{ID: "m4", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Session cookies expire after 12 hours; refresh tokens last 30 days"},
	{ID: "d1", Kind: support.KindDaily, Title: "run-90", Text: "Raised client_max_body_size to 100m in nginx; uploads of 80 MB now go through. Closing the upload blocker."},
	{ID: "d2", Kind: support.KindDaily, Title: "run-91", Text: "The export job might be slow because of the N+1 query in `NoteRepository.listByFolder`; not measured yet."},
	{ID: "d3", Kind: support.KindDaily, Title: "run-92", Text: "Switched the mailer from SendGrid to Postmark because SendGrid delayed password resets by up to 10 minutes."},
	{ID: "d4", Kind: support.KindDaily, Title: "run-93", Text: "Never run migrations from a laptop; the deploy pipeline runs them. The staging database is restored from production every Sunday."},
}

func check(t *testing.T, c support.Claim, cited ...string) support.Verdict {
	t.Helper()
	return support.NewCorpus(sources).Check(c, cited...)
}

func TestSupportClasses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		claim support.Claim
		cited []string
		want  support.Class // "" for supported
	}{
		// faithful rewrites
		{"exact", support.Claim{Content: "The search worker rebuilds the Meilisearch index every 6 hours; the API reads it"}, []string{"m1"}, ""},
		{"reordered passive", support.Claim{Content: "Every 6 hours the Meilisearch index is rebuilt by the search worker"}, []string{"m1"}, ""},
		{"shortened", support.Claim{Content: "Refresh tokens last 30 days"}, []string{"m4"}, ""},
		{"merged two sources", support.Claim{Content: "Session cookies expire after 12 hours, and uploads of 80 MB now go through nginx"}, []string{"m4", "d1"}, ""},
		{"paraphrased negation", support.Claim{Type: agentmem.TypeLearning, Content: "Do not run migrations from a laptop; the deploy pipeline runs them"}, []string{"d4"}, ""},
		{"hedge kept", support.Claim{Content: "The N+1 query in `NoteRepository.listByFolder` may slow the export job"}, []string{"d2"}, ""},
		{"cause stated", support.Claim{Type: agentmem.TypeDecision, Content: "The mailer moved from SendGrid to Postmark", Rationale: "SendGrid delayed password resets by up to 10 minutes"}, []string{"d3"}, ""},
		{"blocker resolved by a record", support.Claim{Type: agentmem.TypeBlocker, Status: agentmem.StatusResolved, Content: "Uploads over 25 MB fail behind the nginx proxy"}, []string{"m3", "d1"}, ""},
		{"blocker still open", support.Claim{Type: agentmem.TypeBlocker, Status: agentmem.StatusOpen, Content: "Uploads over 25 MB fail behind the nginx proxy"}, []string{"m3"}, ""},
		{"hyphenated number", support.Claim{Content: "Refresh tokens have a 30-day lifetime"}, []string{"m4"}, ""},
		{"whole corpus", support.Claim{Content: "The staging database is restored from production every Sunday"}, nil, ""},

		// fabrications
		{"invented command", support.Claim{Content: "Use `pnpm run lint` before committing"}, []string{"m2"}, support.IdentifierMissing},
		{"invented config key", support.Claim{Content: "Raised client_body_limit to 100m in nginx"}, []string{"d1"}, support.IdentifierMissing},
		{"number missing", support.Claim{Content: "Refresh tokens last 90 days"}, []string{"m4"}, support.NumberMissing},
		{"number of another fact", support.Claim{Content: "Session cookies expire after 30 days"}, []string{"m4"}, support.NumberContext},
		{"unit changed", support.Claim{Content: "The search worker rebuilds the Meilisearch index every 6 minutes"}, []string{"m1"}, support.NumberContext},
		{"negation added", support.Claim{Content: "The API does not read the Meilisearch index"}, []string{"m1"}, support.Negation},
		{"negation removed", support.Claim{Content: "Run migrations from a laptop"}, []string{"d4"}, support.Negation},
		{"hedge dropped", support.Claim{Content: "The N+1 query in `NoteRepository.listByFolder` makes the export job slow"}, []string{"d2"}, support.Modality},
		{"invented cause", support.Claim{Type: agentmem.TypeDecision, Content: "Use `pnpm run lint:fix` before committing", Rationale: "SendGrid delayed password resets"}, []string{"m2", "d3"}, support.Causal},
		{"cause from another fact", support.Claim{Content: "Uploads of 80 MB go through because the staging database is restored every Sunday"}, []string{"d1", "d4"}, support.Causal},
		{"migration reversed", support.Claim{Content: "Switched the mailer from Postmark to SendGrid"}, []string{"d3"}, support.RoleSwap},
		{"duty moved", support.Claim{Content: "The API rebuilds the Meilisearch index every 6 hours; the search worker reads it"}, []string{"m1"}, support.RoleSwap},
		{"blocker closed without a source", support.Claim{Type: agentmem.TypeBlocker, Status: agentmem.StatusResolved, Content: "Uploads over 25 MB fail behind the nginx proxy"}, []string{"m3"}, support.StatusChange},
		{"two facts joined", support.Claim{Content: "The deploy pipeline rebuilds the Meilisearch index every 6 hours"}, []string{"m1", "d4"}, support.UnsupportedCombination},
		{"invented", support.Claim{Content: "Deploys happen from the Lisbon office on Fridays"}, nil, support.LowOverlap},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := check(t, tt.claim, tt.cited...)
			if got := v.Supported; got != (tt.want == "") {
				t.Fatalf("supported: got %v (%s: %s), want %v", got, v.Class, v.Detail, tt.want == "")
			}
			if tt.want == "" {
				if v.Class != "" || len(v.Problems) != 0 {
					t.Errorf("a supported claim has problems: %+v", v.Problems)
				}
				return
			}
			found := false
			for _, p := range v.Problems {
				found = found || p.Class == tt.want
			}
			if !found {
				t.Errorf("problems: got %+v, want one of class %s", v.Problems, tt.want)
			}
			if v.Class != v.Problems[0].Class || v.Detail == "" {
				t.Errorf("verdict class %q, detail %q: want the first problem's", v.Class, v.Detail)
			}
		})
	}
}

func TestVerdictReportsOverlapMissingAndSources(t *testing.T) {
	t.Parallel()
	v := check(t, support.Claim{Content: "Refresh tokens are rotated by Vault every 45 days in the Lisbon cluster"}, "m4", "d1")
	if v.Supported || v.Class != support.LowOverlap || !slices.ContainsFunc(v.Problems, func(p support.Problem) bool {
		return p.Class == support.LowOverlap && strings.HasPrefix(p.Detail, "not supported by the sources")
	}) {
		t.Fatalf("got %+v, want low_overlap first", v)
	}
	if !slices.ContainsFunc(v.Problems, func(p support.Problem) bool {
		return p.Class == support.NumberMissing && p.Detail == "a number not in the sources"
	}) {
		t.Errorf("problems %+v lack the missing number", v.Problems)
	}
	for _, w := range []string{"45", "Lisbon"} {
		if !slices.Contains(v.Missing, w) {
			t.Errorf("missing: got %q, want it to list %q", v.Missing, w)
		}
	}
	if v.Overlap <= 0 || v.Overlap >= 1 {
		t.Errorf("overlap: got %v, want strictly between 0 and 1", v.Overlap)
	}
	ok := check(t, support.Claim{Content: "Session cookies expire after 12 hours, and uploads of 80 MB now go through nginx"})
	if !ok.Supported || !slices.Equal(ok.SupportedBy, []string{"m4", "d1"}) {
		t.Errorf("supported by: got %v (%+v), want [m4 d1]", ok.SupportedBy, ok.Problems)
	}
}

func TestCitedSubsetOnly(t *testing.T) {
	t.Parallel()
	c := support.Claim{Content: "Session cookies expire after 12 hours"}
	if v := check(t, c, "m4"); !v.Supported {
		t.Errorf("cited m4: %+v", v)
	}
	if v := check(t, c, "m1"); v.Supported {
		t.Error("a claim was supported by a source it does not cite")
	}
	if v := check(t, c, "m1", "nope", "m4"); !v.Supported {
		t.Errorf("an unknown id among known ones: %+v", v)
	}
	if v := check(t, c, "nope"); v.Supported || v.Class != support.UnknownSource {
		t.Errorf("only unknown ids: got %+v, want unknown_source", v)
	}
	if v := check(t, support.Claim{Content: "the of and"}, "m4"); v.Supported || v.Class != support.Empty {
		t.Errorf("no content words: got %+v, want empty", v)
	}
}

func TestCheckWithoutCorpusAndConstructors(t *testing.T) {
	t.Parallel()
	m := agentmem.Memory{ID: "01J", Type: agentmem.TypeDecision, Content: "Pin Node to 20.11 in CI", Rationale: "20.12 broke the jest snapshot serializer"}
	r := agentmem.DailyRecord{ID: "r1", Title: "run-5", Content: "Pinned Node to 20.11 in CI because 20.12 broke the jest snapshot serializer."}
	srcs := []support.Source{support.MemorySource(m), support.RecordSource(r)}
	if s := srcs[0]; s.ID != "01J" || s.Kind != support.KindMemory || s.Rationale != m.Rationale {
		t.Errorf("MemorySource: %+v", s)
	}
	if s := srcs[1]; s.ID != "r1" || s.Kind != support.KindDaily || s.Title != "run-5" {
		t.Errorf("RecordSource: %+v", s)
	}
	if v := support.Check(support.ClaimOf(m), srcs[1:]); !v.Supported {
		t.Errorf("a memory restated from the record: %+v", v)
	}
	bad := m
	bad.Rationale = "the jest snapshot serializer needs 20.11"
	if v := support.Check(support.ClaimOf(bad), srcs[1:]); v.Supported {
		t.Error("a rationale that reverses the record's cause was supported")
	}
}

func TestClassesAreListedInOrder(t *testing.T) {
	t.Parallel()
	seen := map[support.Class]bool{}
	for _, c := range support.Classes {
		if c == "" || seen[c] || strings.ToLower(string(c)) != string(c) {
			t.Errorf("class %q: empty, repeated or not lower case", c)
		}
		seen[c] = true
	}
	if len(seen) != 13 {
		t.Errorf("got %d classes, want 13", len(seen))
	}
}
