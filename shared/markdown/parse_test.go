package markdown_test

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/markdown"
)

func ptr[T any](v T) *T { return &v }

// TestParseItemsReadsBackMemoryFile: what MemoryFile renders, ParseItems
// and MemoryFromItem read back, typed fields included.
func TestParseItemsReadsBackMemoryFile(t *testing.T) {
	t.Parallel()
	in := []agentmem.Memory{
		{Type: agentmem.TypePattern, Content: "Flaky e2e test", Trigger: "timeout in checkout e2e", Context: "CI only", Solution: "wait for network idle", Confidence: ptr(0.8)},
		{Type: agentmem.TypeDecision, Content: "Use sqlc (not an ORM)", Rationale: "typed queries"},
		{Type: agentmem.TypeBlocker, Content: "CI runner out of disk", Status: agentmem.StatusOpen},
		{Type: agentmem.TypeBlocker, Content: "Flaky DNS", Status: agentmem.StatusResolved},
		{Type: agentmem.TypeFinding, Content: "The cart service caches prices for 60 s", Pinned: true},
		{Type: agentmem.TypeLearning, Content: "Run make test before pushing"},
		{Type: agentmem.TypeNote, Content: "First line\nsecond line"},
	}
	doc := markdown.MemoryFile("nori", "p", in)
	items := markdown.ParseItems(doc)
	if len(items) != len(in) {
		t.Fatalf("got %d items from\n%s", len(items), doc)
	}
	for i, it := range items {
		got := markdown.MemoryFromItem(it.Type, it.Text)
		if !reflect.DeepEqual(got, in[i]) {
			t.Errorf("item %d (%s): got %+v, want %+v", i, it.Heading, got, in[i])
		}
	}
}

func TestParseItemsIsLenient(t *testing.T) {
	t.Parallel()
	doc := "Here is the memory:\r\n\r\n# Memory\n- before any heading\n### Decisions ###\n* Use pgx\n+ Keep migrations in SQL\n1. numbered\n2) also numbered\n-\n- \nprose that is not an item\n    - indented code, not an item\n## Unknown heading\n- a note\n  continued\n\n  not continued after a blank line\n"
	var got []string
	for _, it := range markdown.ParseItems(doc) {
		got = append(got, string(it.Type)+":"+it.Text)
	}
	want := []string{"note:before any heading", "decision:Use pgx", "decision:Keep migrations in SQL", "decision:numbered", "decision:also numbered", "note:a note\ncontinued"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func FuzzParseItems(f *testing.F) {
	f.Add("## Decisions\n- Use sqlc (why: typed)\n## Patterns\n- x\n  When: y\n  Confidence: 0.9\n")
	f.Add("- [x] done\n1. one\n\t- tab\n## \n- 📌 pinned")
	f.Add("#\n##\n-\n* \n10) ten")
	f.Fuzz(func(t *testing.T, doc string) {
		for _, it := range markdown.ParseItems(doc) {
			if strings.TrimSpace(it.Text) == "" || it.Text != strings.TrimSpace(it.Text) {
				t.Fatalf("item text %q is empty or untrimmed", it.Text)
			}
			if !it.Type.Valid() {
				t.Fatalf("item type %q is not valid", it.Type)
			}
			m := markdown.MemoryFromItem(it.Type, it.Text)
			if m.Type != it.Type || !utf8.ValidString(m.Content) {
				t.Fatalf("memory %+v from %q", m, it.Text)
			}
			if c := m.Confidence; c != nil && !(*c >= 0 && *c <= 1) {
				t.Fatalf("confidence %v out of range", *c)
			}
		}
	})
}
