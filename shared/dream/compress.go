package dream

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream/support"
	"github.com/agentmem/agentmem/shared/markdown"
	"github.com/agentmem/agentmem/shared/prompts"
	"github.com/oklog/ulid/v2"
)

// compression is what compressing old memories changes.
type compression struct {
	create  []agentmem.Memory // the compressed items, with SourceIDs
	remove  []agentmem.Memory // the memories they summarise
	dropped []agentmem.DroppedBullet
	notes   []string
	usage   agentmem.ModelUsage
}

// compress summarises the oldest memories among candidates that are older
// than afterDays, not protected (pinned, critical patterns) and not
// already compressed (seed 003, memory compression) into fewer items,
// each recording the ids it came from.
// Every item passes the support test (shared/dream/support) against the
// memories it cites, and replaces only those of them it says all of; a
// memory no surviving item says stays as it is. Compression is a bonus of
// a dream: when it fails, the dream goes on without it and says so in its
// notes.
// compressible counts the memories compression may take: not protected
// (pinned, or a critical pattern, which eviction keeps too), not drawn
// from records, older than afterDays.
func compressible(candidates []agentmem.Memory, now time.Time, afterDays int) int {
	return len(oldMemories(candidates, now, afterDays))
}

func oldMemories(candidates []agentmem.Memory, now time.Time, afterDays int) []agentmem.Memory {
	cutoff := agentmem.FormatTime(now.AddDate(0, 0, -afterDays))
	var old []agentmem.Memory
	for _, m := range candidates {
		if !m.Protected() && len(m.SourceIDs) == 0 && m.CreatedAt < cutoff {
			old = append(old, m)
		}
	}
	return old
}

func (d *Dreamer) compress(ctx context.Context, calls *calls, candidates []agentmem.Memory, agent, project string, now time.Time, afterDays int) compression {
	var c compression
	old := oldMemories(candidates, now, afterDays)
	if len(old) < minCompress {
		return c
	}
	slices.SortFunc(old, func(a, b agentmem.Memory) int { return strings.Compare(a.CreatedAt, b.CreatedAt) })
	old = old[:min(len(old), maxCompress)]
	byID := map[string]agentmem.Memory{}
	var list strings.Builder
	for _, m := range old {
		byID[m.ID] = m
		fmt.Fprintf(&list, "- [%s] (%s) %s\n", m.ID, markdown.Heading(m.Type), oneLine(markdown.Bullet(m)))
	}
	p := prompts.Must("compress")
	prompt, err := p.Render(map[string]string{"agent": agent, "project": project, "memories": strings.TrimSpace(list.String())})
	if err != nil {
		c.notes = append(c.notes, "compression skipped: "+err.Error())
		return c
	}
	resp, err := calls.complete(ctx, prompt)
	if err != nil {
		c.notes = append(c.notes, fmt.Sprintf("compression of %d old memories skipped: the LLM failed: %s", len(old), llmMessage(err)))
		return c
	}
	c.usage = agentmem.ModelUsage{Calls: 1, InputTokens: resp.InputTokens, OutputTokens: resp.OutputTokens}
	if cutOff(resp) {
		c.notes = append(c.notes, fmt.Sprintf("compression of %d old memories skipped: its answer was cut off at the token cap", len(old)))
		return c
	}
	items := ParseCompressed(resp.Text)
	cited := map[string]bool{}
	var made []agentmem.Memory
	for _, it := range items {
		m := markdown.MemoryFromItem(it.Type, it.Text)
		m.Pinned = false
		m.AgentName, m.ProjectID, m.Source = agent, project, agentmem.SourceSystem
		var srcs []support.Source
		var ids []string
		newest := ""
		for _, id := range it.SourceIDs {
			if s, ok := byID[id]; ok && !slices.Contains(ids, id) {
				ids = append(ids, id)
				srcs = append(srcs, support.MemorySource(s))
				newest = max(newest, s.CreatedAt)
			}
		}
		if len(ids) == 0 {
			c.dropped = append(c.dropped, agentmem.DroppedBullet{Type: m.Type, Content: truncate(m.Content, 500), Reason: "compressed item cites none of the memories it was given"})
			continue
		}
		corpus := support.NewCorpus(srcs)
		corpus.MinOverlap = d.Config.MinSupport
		v := corpus.Check(support.ClaimOf(m))
		if !v.Supported {
			c.dropped = append(c.dropped, droppedBullet(m, v, " (compression)"))
			continue
		}
		if err := validMemory(m); err != nil {
			c.dropped = append(c.dropped, agentmem.DroppedBullet{Type: m.Type, Content: truncate(m.Content, 500), Support: v.Overlap, Reason: agentmem.ErrorMessage(err)})
			continue
		}
		// The item takes the place of the memories it cites: only those
		// it says all of (the support test of each against the item
		// alone, as a retirement by merge) are replaced; a memory cited
		// but not summarised stays as it is.
		said := support.NewCorpus([]support.Source{support.MemorySource(m)})
		said.MinOverlap = d.Config.MinSupport
		ids = slices.DeleteFunc(ids, func(id string) bool {
			if said.Check(support.ClaimOf(byID[id])).Supported {
				return false
			}
			c.notes = append(c.notes, fmt.Sprintf("compressed item %q cites memory %s but does not say all of it; the memory stays", truncate(m.Content, 120), id))
			return true
		})
		if len(ids) == 0 {
			c.dropped = append(c.dropped, agentmem.DroppedBullet{Type: m.Type, Content: truncate(m.Content, 500), Support: v.Overlap, Reason: "compressed item says all of none of the memories it cites"})
			continue
		}
		newest = ""
		for _, id := range ids {
			newest = max(newest, byID[id].CreatedAt)
		}
		slices.Sort(ids)
		m.SourceIDs = ids
		// The summary takes the place of its newest source in time order.
		t, _ := agentmem.ParseTime(newest)
		m.ID, m.CreatedAt = ulid.Make().String(), agentmem.FormatTime(t.Add(1))
		made = append(made, m)
		for _, id := range ids {
			cited[id] = true
		}
	}
	if len(made) == 0 {
		c.notes = append(c.notes, fmt.Sprintf("compression of %d old memories produced no usable item", len(old)))
		return c
	}
	if len(made) >= len(cited) {
		c.notes = append(c.notes, fmt.Sprintf("compression skipped: %d items for %d memories is no compression", len(made), len(cited)))
		return c
	}
	c.create = made
	for _, m := range old {
		if cited[m.ID] {
			c.remove = append(c.remove, m)
		}
	}
	c.notes = append(c.notes, fmt.Sprintf("compressed %d memories older than %d days into %d", len(c.remove), afterDays, len(made)))
	return c
}
