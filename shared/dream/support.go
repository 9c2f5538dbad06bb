package dream

import (
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream/support"
)

// DefaultMinSupport is the share of a bullet's content words its sources
// must contain (support.DefaultMinOverlap); the support test checks their
// meaning on top of that.
const DefaultMinSupport = support.DefaultMinOverlap

// corpusOf is what the support test checks a dream's bullets against:
// every memory and daily record the model was shown. The answer format of
// today cites no sources, so each bullet is checked against all of them;
// an answer with citations checks an operation against the ids it cites
// (support.Corpus.Check with ids).
func corpusOf(view scopeView, records []agentmem.DailyRecord, minSupport float64) *support.Corpus {
	var srcs []support.Source
	for _, m := range view.replaceable {
		srcs = append(srcs, support.MemorySource(m))
	}
	for _, m := range view.fixed {
		srcs = append(srcs, support.MemorySource(m))
	}
	for _, r := range records {
		srcs = append(srcs, support.RecordSource(r))
	}
	c := support.NewCorpus(srcs)
	c.MinOverlap = minSupport
	return c
}

// droppedBullet is the diary's record of a bullet the support test
// refused: its class, the detail, the share of its words found and the
// words (and numbers) the sources lack.
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
