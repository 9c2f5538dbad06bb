package search

import (
	"cmp"
	"slices"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// Doc is one searchable document: a memory's ID, its searchable text (see
// [MemoryText]) and, when an embeddings provider computed one, its vector.
type Doc struct {
	ID     string
	Text   string
	Vector []float32
}

// Hit is a ranked document: its ID and its relevance score. Scores are
// comparable within one ranking only; their scale depends on the method
// (BM25, cosine similarity or fused reciprocal ranks).
type Hit struct {
	ID    string  `json:"id"`
	Score float64 `json:"score"`
}

// sortHits orders hits by score, highest first, equal scores by ID.
func sortHits(hits []Hit) {
	slices.SortFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}

// MemoryText is the searchable text of a memory: its content followed by
// its typed fields (rationale, trigger, context, solution), its tags and its
// type, one per line, empty ones left out. Including the type lets a query
// such as "decision about the queue" favour decisions.
func MemoryText(m agentmem.Memory) string {
	n := len(m.Content) + len(m.Rationale) + len(m.Trigger) + len(m.Context) + len(m.Solution) + len(m.Type) + 8
	for _, t := range m.Tags {
		n += len(t) + 1
	}
	b := make([]byte, 0, n)
	add := func(s string) {
		if s == "" {
			return
		}
		if len(b) > 0 {
			b = append(b, '\n')
		}
		b = append(b, s...)
	}
	add(m.Content)
	add(m.Rationale)
	add(m.Trigger)
	add(m.Context)
	add(m.Solution)
	for _, t := range m.Tags {
		add(t)
	}
	add(string(m.Type))
	return string(b)
}

// MemoryDoc returns the document for a memory, with vec as its vector (nil
// when the memory has no embedding).
func MemoryDoc(m agentmem.Memory, vec []float32) Doc {
	return Doc{ID: m.ID, Text: MemoryText(m), Vector: vec}
}
