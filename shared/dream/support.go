package dream

import (
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream/support"
)

// DefaultMinSupport is the share of a claim's content words its cited
// sources must contain (support.DefaultMinOverlap); the support test
// checks their meaning on top of that.
const DefaultMinSupport = support.DefaultMinOverlap

// sourcesOf indexes what a dream's operations may cite: every memory of
// the scope the dream read and every daily record the model was shown.
// Each operation is checked against the ids it cites only
// (support.Corpus.Check with ids).
func sourcesOf(view scopeView, records []agentmem.DailyRecord, minSupport float64) sourceIndex {
	idx := sourceIndex{memories: map[string]agentmem.Memory{}, records: map[string]agentmem.DailyRecord{}, fixed: map[string]bool{}}
	var srcs []support.Source
	for _, m := range view.replaceable {
		srcs = append(srcs, support.MemorySource(m))
		idx.memories[m.ID] = m
	}
	for _, m := range view.fixed {
		srcs = append(srcs, support.MemorySource(m))
		idx.memories[m.ID], idx.fixed[m.ID] = m, true
	}
	for _, r := range records {
		srcs = append(srcs, support.RecordSource(r))
		idx.records[r.ID] = r
	}
	idx.corpus = support.NewCorpus(srcs)
	idx.corpus.MinOverlap = minSupport
	return idx
}

// droppedBullet is the diary's record of a compressed item the support
// test refused: its class, the detail, the share of its words found and
// the words (and numbers) the sources lack.
func droppedBullet(m agentmem.Memory, v support.Verdict, suffix string) agentmem.DroppedBullet {
	return agentmem.DroppedBullet{Type: m.Type, Content: truncate(m.Content, 500), Support: v.Overlap,
		Missing: v.Missing, Class: string(v.Class), Reason: v.Detail + suffix}
}

// claimText is what a memory asserts: its content and typed fields (the
// size a memory takes in a prompt).
func claimText(m agentmem.Memory) string {
	parts := []string{m.Content}
	for _, f := range []string{m.Rationale, m.Trigger, m.Context, m.Solution} {
		if f != "" {
			parts = append(parts, f)
		}
	}
	return strings.Join(parts, "\n")
}
