package dream_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream"
)

func TestParseOpsReadsWhatModelsWrite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		want       []string // op:target:cites:type:content
		diary      string
	}{
		{"bare object", `{"operations": [{"op": "keep", "id": "m1"}], "dream": "Quiet night."}`,
			[]string{"keep:m1:::"}, "Quiet night."},
		{"fenced with prose around", "Sure! Here is my answer.\n```json\n{\"operations\": [{\"op\": \"add\", \"type\": \"decision\", \"content\": \"Use pgx (why: typed queries)\", \"cite\": [\"r1\"]}], \"dream\": \"I added a decision.\"}\n```\nLet me know if you need more.",
			[]string{"add::r1:decision:Use pgx"}, "I added a decision."},
		{"synonyms and shapes", "{\"Operations\": [\n {\"action\": \"Delete\", \"memory_id\": \"[M3]\", \"sources\": \"r1, r2\"},\n {\"operation\": \"edit\", \"target\": \"#m2\", \"text\": \"x\", \"citations\": [\"R02\", \"m2\"], \"Type\": \"Findings\"},\n {\"op\": \"create\", \"content\": \"[x] CI fixed\", \"type\": \"blocker\", \"evidence\": [\"r4\"]}\n]}",
			[]string{"retire:m3:r1,r2::", "update:m2:r2,m2:finding:x", "add::r4:blocker:CI fixed"}, ""},
		{"a bare list", "[{\"op\": \"retire\", \"id\": \"01JD5Q8Z3K7M2N4P6R8T0V2X4Y\", \"cite\": [\"r1\"]}]",
			[]string{"retire:01JD5Q8Z3K7M2N4P6R8T0V2X4Y:r1::"}, ""},
		{"an example first, then the answer", "The format is {\"operations\": [{\"op\": \"keep\", \"id\": \"m9\"}]}.\nMy answer:\n{\"operations\": [{\"op\": \"keep\", \"id\": \"m1\"}]}",
			[]string{"keep:m1:::"}, ""},
		{"reasoning removed", "<think>maybe {\"operations\": [{\"op\": \"retire\", \"id\": \"m1\"}]}</think>\n{\"operations\": []}\n[DREAM]\nNothing changed.", nil, "Nothing changed."},
		{"empty list", `{"operations": [], "dream": ""}`, nil, ""},
		{"unknown op kept for the diary", `{"operations": [{"op": "frobnicate", "id": "m1"}, "nonsense"]}`, []string{":m1:::", "::::"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, err := dream.ParseOps(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, op := range a.Ops {
				got = append(got, op.Op+":"+op.Target+":"+strings.Join(op.Cites, ",")+":"+string(op.Memory.Type)+":"+op.Memory.Content)
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") || a.Diary != tt.diary {
				t.Errorf("got %q, diary %q\nwant %q, %q", got, a.Diary, tt.want, tt.diary)
			}
		})
	}
	a, _ := dream.ParseOps(`{"operations": [{"op": "add", "type": "decision", "content": "Use pgx (why: typed queries)", "cite": ["r1"]}, {"op": "add", "type": "blocker", "content": "CI is red", "status": "resolved", "cite": "r1"}]}`)
	if m := a.Ops[0].Memory; m.Rationale != "typed queries" || m.Content != "Use pgx" {
		t.Errorf("rationale from the bullet form: %+v", m)
	}
	if m := a.Ops[1].Memory; m.Status != agentmem.StatusResolved {
		t.Errorf("status field: %+v", m)
	}
}

func TestParseOpsRefusesWhatIsNotAnAnswer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		want       error
	}{
		{"prose", "I reviewed the memories and all is fine.", dream.ErrNoOperations},
		{"the old format", "[MEMORY]\n## Notes\n- x\n[DREAM]\ny", dream.ErrNoOperations},
		{"an object without operations", `{"memories": ["x"]}`, dream.ErrNoOperations},
		{"cut in a string", "```json\n{\"operations\": [{\"op\": \"add\", \"content\": \"The pay", dream.ErrCutOff},
		{"cut between operations", "{\"operations\": [\n{\"op\": \"keep\", \"id\": \"m1\"},\n", dream.ErrCutOff},
		{"a complete answer, then a second one cut", "{\"operations\": []}\nWait, let me redo it:\n{\"operations\": [{\"op\": \"retire\"", dream.ErrCutOff},
		{"reasoning never closed", "<think>Let me think about {\"operations\": [", dream.ErrNoOperations},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := dream.ParseOps(tt.text); !errors.Is(err, tt.want) {
				t.Errorf("got %v, want %v", err, tt.want)
			}
		})
	}
}

func TestNormalizeRef(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"m3": "m3", "M03": "m3", "[r12]": "r12", "#m1": "m1", "memory m7": "m7", "record r2": "r2",
		"01jd5q8z3k7m2n4p6r8t0v2x4y": "01JD5Q8Z3K7M2N4P6R8T0V2X4Y", "": "", "  ": "", strings.Repeat("x", 80): ""} {
		if got := dream.NormalizeRef(in); got != want {
			t.Errorf("NormalizeRef(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseVerdicts(t *testing.T) {
	t.Parallel()
	got, err := dream.ParseVerdicts("Here:\n```json\n{\"verdicts\": [{\"n\": 2, \"verdict\": \"contradicts\"}, {\"n\": 1, \"verdict\": \"Supports\"}, {\"n\": 9, \"verdict\": \"supports\"}, {\"n\": 3, \"verdict\": \"not_mentioned\"}]}\n```", 4)
	if err != nil || strings.Join(got, ",") != "supports,contradicts,not_mentioned," {
		t.Errorf("got %q, %v", got, err)
	}
	if _, err := dream.ParseVerdicts("They all look fine to me.", 2); err == nil {
		t.Error("no verdicts: no error")
	}
	// Two verdicts on one change that disagree: the verifier may only
	// refuse more, so a refusal among them is the verdict, whatever the
	// order (positional and numbered entries alike).
	for _, tt := range []struct{ answer, want string }{
		{`{"verdicts": [{"n": 1, "verdict": "contradicts"}, {"n": 1, "verdict": "supports"}, {"n": 2, "verdict": "supports"}]}`, "contradicts,supports"},
		{`{"verdicts": [{"n": 1, "verdict": "supports"}, {"n": 1, "verdict": "not_mentioned"}]}`, "not_mentioned,"},
		{`["supports", "supports", {"n": 1, "verdict": "not_mentioned"}, {"n": 1, "verdict": "supports"}]`, "not_mentioned,supports"},
		{`{"verdicts": [{"n": 2, "verdict": "supports"}, {"n": 2, "verdict": "supports"}]}`, ",supports"},
	} {
		got, err := dream.ParseVerdicts(tt.answer, 2)
		if err != nil || strings.Join(got, ",") != tt.want {
			t.Errorf("ParseVerdicts(%s) = %q, %v; want %q", tt.answer, got, err, tt.want)
		}
	}
}

// FuzzParseOps: any text is read without panicking, in bounded time, and
// what is returned is well-formed: known operations, normalised
// references, bounded diary, valid UTF-8.
func FuzzParseOps(f *testing.F) {
	f.Add(`{"operations": [{"op": "keep", "id": "m1"}], "dream": "x"}`)
	f.Add("```json\n{\"operations\": [{\"op\": \"add\", \"content\": \"a\", \"cite\": [\"r1\"]}]}\n```\n[DREAM]\nb")
	f.Add(`[{"op": "retire", "id": "m2", "cite": "r1,r2"}]`)
	f.Add("{\"operations\": [{\"op\": \"update\", \"id\": \"m1\", \"content\": \"\xff\"")
	f.Add("<think>{</think>{\"ops\":null}")
	f.Fuzz(func(t *testing.T, text string) {
		a, err := dream.ParseOps(text)
		if err != nil {
			if !errors.Is(err, dream.ErrCutOff) && !errors.Is(err, dream.ErrNoOperations) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if len(a.Diary) > dream.MaxDiaryBytes || !utf8.ValidString(a.Diary) && utf8.ValidString(text) {
			t.Fatalf("diary of %d bytes", len(a.Diary))
		}
		for _, op := range a.Ops {
			switch op.Op {
			case "", agentmem.OpKeep, agentmem.OpAdd, agentmem.OpUpdate, agentmem.OpRetire:
			default:
				t.Fatalf("operation %q", op.Op)
			}
			if len(op.Cites) > agentmem.MaxCitations {
				t.Fatalf("%d citations", len(op.Cites))
			}
			for _, c := range append(op.Cites, op.Target) {
				if strings.ContainsAny(c, ", ;\n") || len(c) > 64 {
					t.Fatalf("reference %q", c)
				}
			}
			if !utf8.ValidString(op.Memory.Content) {
				t.Fatalf("content %q", op.Memory.Content)
			}
		}
	})
}

// TestParseOpsReadsLongAnswers: an answer of many operations, one per
// line, is one object, whatever the number of lines.
func TestParseOpsReadsLongAnswers(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("{\"operations\": [\n")
	for i := range 500 {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`{"op": "keep", "id": "m` + strings.Repeat("1", 1+i%3) + `"}`)
	}
	b.WriteString("\n], \"dream\": \"long night\"}")
	a, err := dream.ParseOps(b.String())
	if err != nil || len(a.Ops) != 500 || a.Diary != "long night" {
		t.Errorf("got %d operations, diary %q, %v", len(a.Ops), a.Diary, err)
	}
}

// FuzzParseVerdicts: any text gives n verdicts of the three known words
// (or none), or an error.
func FuzzParseVerdicts(f *testing.F) {
	f.Add(`{"verdicts": [{"n": 1, "verdict": "supports"}, {"n": 2, "verdict": "contradicts"}]}`, 2)
	f.Add(`["not_mentioned", {"n": "x"}]`, 3)
	f.Add("```\n{\"results\": [{\"change\": 9, \"answer\": \"yes\"}]}", 1)
	f.Fuzz(func(t *testing.T, text string, n int) {
		if n < 0 || n > 64 {
			return
		}
		got, err := dream.ParseVerdicts(text, n)
		if err != nil {
			return
		}
		if len(got) != n {
			t.Fatalf("%d verdicts for %d changes", len(got), n)
		}
		for _, v := range got {
			switch v {
			case "", agentmem.VerdictSupports, agentmem.VerdictContradicts, agentmem.VerdictNotMentioned:
			default:
				t.Fatalf("verdict %q", v)
			}
		}
	})
}

func TestParseOpsForgivesTrailingCommasAndComments(t *testing.T) {
	t.Parallel()
	a, err := dream.ParseOps("```json\n{\"operations\": [\n  {\"op\": \"keep\", \"id\": \"m1\"}, // still true\n  {\"op\": \"retire\", \"id\": \"m2\", \"cite\": [\"r1\",],},\n], \"dream\": \"a // is not a comment in a string\",}\n```\n[DREAM]\nnot this")
	if err != nil || len(a.Ops) != 2 || a.Ops[1].Cites[0] != "r1" || a.Diary != "a // is not a comment in a string" {
		t.Errorf("got %+v, %v", a, err)
	}
	if _, err := dream.ParseOps("{\"operations\": [{\"op\": \"keep\", \"id\": \"m1\"},"); !errors.Is(err, dream.ErrCutOff) {
		t.Errorf("a relaxed reading must not hide a cut-off answer: %v", err)
	}
}
