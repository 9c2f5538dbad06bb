package memoryapi

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/search"
)

// DefaultSuggestLimit is how many patterns SuggestPatterns and the
// bootstrap route's task suggestions return unless asked otherwise.
const DefaultSuggestLimit = agentmem.DefaultSuggestLimit

// touchTimeout bounds the lastAccessedAt updates of a search's hits: the
// answer waits for them at most this long.
const touchTimeout = 300 * time.Millisecond

// text validates a free-text query parameter: required, at most
// agentmem.MaxQueryBytes, valid UTF-8.
func text(r *httpapi.Request, name, what string) (string, error) {
	s := strings.TrimSpace(r.Query.Get(name))
	switch {
	case s == "":
		return "", agentmem.Errorf(agentmem.EInvalid, "%s is required: %s", name, what)
	case len(s) > agentmem.MaxQueryBytes:
		return "", agentmem.Errorf(agentmem.EInvalid, "%s is %d bytes; the limit is %d", name, len(s), agentmem.MaxQueryBytes)
	case !utf8.ValidString(s) || strings.ContainsRune(s, 0):
		return "", agentmem.Errorf(agentmem.EInvalid, "%s is not valid UTF-8 text", name)
	}
	return s, nil
}

// typeFilter returns the validated type query parameter ("" when absent).
func typeFilter(r *httpapi.Request) (agentmem.Type, error) {
	typ := agentmem.Type(r.Query.Get("type"))
	if typ != "" && !typ.Valid() {
		return "", agentmem.Errorf(agentmem.EInvalid, "type %q is not a memory type", typ)
	}
	return typ, nil
}

// SearchMemories serves GET /api/agents/{agentName}/memories/search.
func (a *API) SearchMemories(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, project, err := scope(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	q, err := text(r, "q", "the words to search for")
	if err != nil {
		return httpapi.Response{}, err
	}
	limit, err := r.IntQuery("limit", agentmem.DefaultSearchLimit, 1, agentmem.MaxSearchLimit)
	if err != nil {
		return httpapi.Response{}, err
	}
	typ, err := typeFilter(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	// The query's vector is computed while the scope is read.
	vecc := a.queryVector(ctx, q)
	ix, err := a.scopeIndex(ctx, agent, project, typ)
	qvec := <-vecc
	if err != nil {
		return httpapi.Response{}, err
	}
	hits, mode := ix.index.RankMode(q, qvec, limit)
	out := agentmem.SearchResult{Query: q, Mode: string(mode), Searched: ix.index.Len(), Results: a.scored(ctx, hits, ix.memories)}
	return httpapi.JSON(http.StatusOK, out), nil
}

// queryVector embeds q in the background when an embedder is configured.
// The channel yields nil when there is none or it failed: search falls
// back to lexical ranking, and the failure is logged.
func (a *API) queryVector(ctx context.Context, q string) <-chan []float32 {
	c := make(chan []float32, 1)
	if a.Embedder == nil {
		c <- nil
		return c
	}
	go func() {
		vecs, err := a.Embedder.Embed(ctx, []string{q})
		if err != nil || len(vecs) != 1 {
			a.Log.WarnContext(ctx, "query not embedded; ranking lexically", "embedder", a.Embedder.Name(), "kind", embeddings.KindOf(err), "err", err)
			c <- nil
			return
		}
		c <- vecs[0]
	}()
	return c
}

// scored returns the memories of hits in order with their scores, and
// marks them used (lastAccessedAt) for eviction.
func (a *API) scored(ctx context.Context, hits []search.Hit, byID map[string]agentmem.Memory) []agentmem.ScoredMemory {
	out := make([]agentmem.ScoredMemory, len(hits))
	used := make([]agentmem.Memory, len(hits))
	for i, h := range hits {
		out[i] = agentmem.ScoredMemory{Memory: byID[h.ID], Score: h.Score}
		used[i] = out[i].Memory
	}
	if at, ok := a.touch(ctx, used); ok {
		stamp := agentmem.FormatTime(at)
		for i := range out {
			out[i].LastAccessedAt = stamp
		}
	}
	return out
}

// touch sets the lastAccessedAt of ms to now, waiting at most
// touchTimeout, and returns the time set and whether every update went
// through. A failure is logged, not returned: the answer does not depend
// on it.
func (a *API) touch(ctx context.Context, ms []agentmem.Memory) (time.Time, bool) {
	now := a.Store.Now()
	if len(ms) == 0 {
		return now, true
	}
	tctx, cancel := context.WithTimeout(ctx, touchTimeout)
	defer cancel()
	n, err := a.Store.TouchMemories(tctx, ms, now)
	if err != nil {
		a.Log.WarnContext(ctx, "lastAccessedAt not updated for every hit", "updated", n, "hits", len(ms), "err", err)
		return now, false
	}
	return now, true
}

// SuggestPatterns serves GET /api/agents/{agentName}/patterns/suggest.
func (a *API) SuggestPatterns(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, project, err := scope(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	task, err := text(r, "task", "a description of the task to find patterns for")
	if err != nil {
		return httpapi.Response{}, err
	}
	limit, err := r.IntQuery("limit", DefaultSuggestLimit, 1, agentmem.MaxSearchLimit)
	if err != nil {
		return httpapi.Response{}, err
	}
	minConf := a.MinConfidence
	if v := r.Query.Get("minConfidence"); v != "" {
		if minConf, err = parseConfidence(v); err != nil {
			return httpapi.Response{}, agentmem.Errorf(agentmem.EInvalid, "minConfidence must be a number from 0 to 1")
		}
	}
	patterns, err := a.suggestions(ctx, agent, project, task, minConf, limit)
	if err != nil {
		return httpapi.Response{}, err
	}
	return httpapi.JSON(http.StatusOK, agentmem.Suggestions{Task: task, MinConfidence: minConf, Patterns: patterns}), nil
}

// suggestions returns the patterns of a scope relevant to task with a
// confidence above minConf, best first, marked used.
func (a *API) suggestions(ctx context.Context, agent, project, task string, minConf float64, limit int) ([]agentmem.ScoredMemory, error) {
	pats, err := a.Store.ScopeMemories(ctx, agent, project, agentmem.TypePattern)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]agentmem.Memory, len(pats))
	for _, p := range pats {
		byID[p.ID] = p
	}
	return a.scored(ctx, search.SuggestPatterns(task, pats, minConf, limit), byID), nil
}

// parseConfidence parses a confidence threshold from 0 to 1.
func parseConfidence(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f >= 0 && f <= 1) {
		return 0, agentmem.Errorf(agentmem.EInvalid, "%q is not a number from 0 to 1", s)
	}
	return f, nil
}
