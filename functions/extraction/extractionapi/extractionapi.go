// Package extractionapi is the extraction function: POST
// /api/agents/{agentName}/extractions saves what an agent learned in one
// pipeline run as memories with source "extraction". The body carries
// either the run's output (the server asks its LLM for the learnings, see
// package extract) or learnings the client already extracted (`agentmem
// extract --llm claude`). Either way the request is idempotent per runId
// (a journal record claims the run before any work, and a retry gets the
// first answer back), learnings that repeat another of the run or a memory
// of the scope (search.Repeat: as a person would judge it) are skipped, a
// learning that says it replaces a memory of the scope (the prompt shows
// the scope's current memories; "replaces") supersedes it, and a failure
// writes nothing. The patterns of a successful run
// go through Store.SavePattern: a pattern seen again raises the stored
// one's confidence instead of adding a copy (seed 003). The run's summary
// becomes a record of the agent's daily log titled with the run id, which
// the nightly Deep Dream consolidates (seed 001). The Lambda main and
// cmd/devserver both serve it.
package extractionapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/extract"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/agentmem/agentmem/shared/search"
)

// API serves the extraction function's route.
type API struct {
	Store *dynamostore.Store
	LLM   llm.Client
	Log   *slog.Logger
}

// New returns the Lambda handler of the extraction function.
func New(deps lambdamain.Deps) (*httpapi.Handler, error) {
	a := &API{Store: deps.Store, LLM: deps.LLM, Log: deps.Log}
	if a.Log == nil {
		a.Log = slog.Default()
	}
	if a.LLM == nil {
		a.LLM = llm.Disabled{}
	}
	return httpapi.NewExtractionHandler(a, a.Log)
}

// Lease bounds: a claim outlives the request's deadline by leaseMargin
// (clocks a little apart), so a holder that dies, or is killed at its
// deadline, loses the run soon after; a request without a deadline holds it
// as long as the function's timeout allows (routes.Timeouts).
const (
	leaseMargin = 5 * time.Second
	// cleanupTimeout bounds releasing a claim and undoing writes after a
	// failure, which run even when the request's context has ended.
	cleanupTimeout = 10 * time.Second
)

// CreateExtraction serves POST /api/agents/{agentName}/extractions.
func (a *API) CreateExtraction(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, err := r.AgentName()
	if err != nil {
		return httpapi.Response{}, err
	}
	var in agentmem.ExtractionInput
	if err := r.Decode(&in); err != nil {
		return httpapi.Response{}, err
	}
	if err := validate(&in); err != nil {
		return httpapi.Response{}, err
	}
	if _, none := a.LLM.(llm.Disabled); none && in.Output != nil {
		return httpapi.Response{}, unavailable(nil)
	}

	run, claimed, err := a.Store.ClaimRun(ctx, agent, in.ProjectID, in.RunID, leaseUntil(ctx))
	if err != nil {
		return httpapi.Response{}, err
	}
	if !claimed {
		var resp agentmem.ExtractionResult
		if err := json.Unmarshal([]byte(run.Result), &resp); err != nil {
			return httpapi.Response{}, fmt.Errorf("replay run %s: stored answer: %w", in.RunID, err)
		}
		resp.Replayed = true
		return httpapi.JSON(http.StatusOK, resp), nil
	}

	resp, saved, superseded, err := a.extract(ctx, agent, in)
	if err != nil {
		a.undo(ctx, run, saved, superseded)
		return httpapi.Response{}, err
	}
	a.recordDaily(ctx, agent, in, &resp)
	ids := make([]string, len(saved))
	for i, m := range saved {
		ids[i] = m.ID
	}
	raw, err := json.Marshal(resp)
	if err == nil {
		_, err = a.Store.FinishRun(ctx, run, ids, raw)
	}
	if err != nil {
		// The memories are saved; a retry after the lease finds them and
		// skips them as duplicates. Answer with what was done.
		a.Log.ErrorContext(ctx, "extraction run not recorded", "agent", agent, "project", in.ProjectID, "runId", in.RunID, "err", err)
	}
	a.Log.InfoContext(ctx, "extracted", "agent", agent, "project", in.ProjectID, "runId", in.RunID,
		"saved", len(resp.Saved), "skipped", len(resp.Skipped), "model", resp.Model, "prompt", resp.Prompt, "truncated", resp.Truncated)
	return httpapi.JSON(http.StatusOK, resp), nil
}

// validate checks the body before anything is written. Exactly one of
// Output and Learnings must be set (JSON null counts as absent); Summary
// and Success go with Learnings (with Output the LLM provides them).
// Output keeps its last extract.MaxOutputBytes for the prompt; Learnings
// are at most extract.MaxLearnings, each valid by the memory rules.
func validate(in *agentmem.ExtractionInput) error {
	if err := agentmem.ValidateProjectID(in.ProjectID); err != nil {
		return err
	}
	if err := agentmem.ValidateRunID(in.RunID); err != nil {
		return err
	}
	switch {
	case in.Output != nil && in.Learnings != nil:
		return agentmem.Errorf(agentmem.EInvalid, "send either output (the server extracts) or learnings (already extracted), not both")
	case in.Output == nil && in.Learnings == nil:
		return agentmem.Errorf(agentmem.EInvalid, "output (the run's output) or learnings is required")
	case in.Output != nil:
		if in.Summary != "" || in.Success != nil {
			return agentmem.Errorf(agentmem.EInvalid, "summary and success go with learnings; with output the LLM writes them")
		}
		if !utf8.ValidString(*in.Output) {
			return agentmem.Errorf(agentmem.EInvalid, "output is not valid UTF-8")
		}
		if strings.TrimSpace(*in.Output) == "" {
			return agentmem.Errorf(agentmem.EInvalid, "output is empty: there is nothing to extract")
		}
		return nil
	}
	ls := in.Learnings
	if len(ls) > extract.MaxLearnings {
		return agentmem.Errorf(agentmem.EInvalid, "at most %d learnings per run, got %d", extract.MaxLearnings, len(ls))
	}
	for i, l := range ls {
		mi := l.Input(in.ProjectID, in.RunID)
		if err := mi.Validate(); err != nil {
			return agentmem.Errorf(agentmem.EInvalid, "learnings[%d]: %s", i, agentmem.ErrorMessage(err))
		}
	}
	if len(in.Summary) > extract.MaxSummaryBytes || !utf8.ValidString(in.Summary) {
		return agentmem.Errorf(agentmem.EInvalid, "summary must be valid UTF-8 of at most %d bytes", extract.MaxSummaryBytes)
	}
	if strings.ContainsRune(in.Summary, 0) {
		// The daily log refuses it: the run's record would be lost after
		// its learnings were saved.
		return agentmem.Errorf(agentmem.EInvalid, "summary contains a NUL character")
	}
	return nil
}

// extract gets the run's learnings (from the LLM or the body), skips the
// repeats (of another learning of the run, or of a memory of the scope:
// search.Repeat) and saves the rest, each superseding the memory it
// replaces when it names one. It returns the memories it saved and those
// they superseded even when it fails, so that the caller can undo them.
func (a *API) extract(ctx context.Context, agent string, in agentmem.ExtractionInput) (agentmem.ExtractionResult, []agentmem.Memory, []agentmem.Memory, error) {
	var current []agentmem.Memory
	if in.Output != nil || slices.ContainsFunc(in.Learnings, func(l agentmem.Learning) bool { return l.Replaces != "" }) {
		var err error
		if current, err = a.Store.LiveMemories(ctx, agent, in.ProjectID); err != nil {
			return agentmem.ExtractionResult{}, nil, nil, err
		}
	}
	var res extract.Result
	if in.Output != nil {
		var err error
		if res, err = extract.Run(ctx, a.LLM, *in.Output, current...); err != nil {
			a.Log.WarnContext(ctx, "extraction failed: nothing saved", "agent", agent, "project", in.ProjectID, "runId", in.RunID,
				"llm", a.LLM.Name(), "kind", llm.KindOf(err), "unparseable", errors.Is(err, extract.ErrUnparseable), "err", err)
			return agentmem.ExtractionResult{}, nil, nil, llmFailure(err, a.LLM.Name())
		}
	} else {
		res = extract.Result{Learnings: in.Learnings, Summary: in.Summary, Success: in.Success != nil && *in.Success}
	}
	resp := agentmem.ExtractionResult{
		RunID: in.RunID, Saved: []agentmem.Memory{}, Skipped: append([]agentmem.SkippedLearning{}, res.Skipped...),
		Summary: res.Summary, Success: res.Success, Model: res.Model, Prompt: res.Prompt, Truncated: res.Truncated,
		Notes: res.Notes,
	}
	live := make(map[string]agentmem.Memory, len(current))
	for _, m := range current {
		live[m.ID] = m
	}
	by := agentmem.ChangeBy{Kind: agentmem.ByExtraction, RunID: in.RunID}
	batch := search.NewDedup(nil)
	var saved, superseded []agentmem.Memory
	for _, l := range res.Learnings {
		mi := l.Input(in.ProjectID, in.RunID)
		m := mi.Memory(agent, agentmem.SourceExtraction)
		if _, _, repeat := batch.Find(m); repeat {
			resp.Skipped = append(resp.Skipped, agentmem.SkippedLearning{Content: l.Content, Reason: "repeats another learning of this run"})
			continue
		}
		batch.Add(m)
		if l.Type == agentmem.TypePattern && !res.Success {
			// Seed 003 captures the patterns of successful runs.
			resp.Skipped = append(resp.Skipped, agentmem.SkippedLearning{Content: l.Content, Reason: "patterns are captured from successful runs only"})
			continue
		}
		replaces := a.replaceable(l, m, live, &resp)
		if l.Type == agentmem.TypePattern && replaces == "" {
			// Seeing a pattern again reinforces it rather than adding a
			// copy; one whose fix differs is a new pattern.
			p, raised, err := a.Store.SavePattern(ctx, m)
			if err != nil {
				return agentmem.ExtractionResult{}, saved, superseded, err
			}
			if raised {
				resp.Reinforced = append(resp.Reinforced, p)
			} else {
				saved = append(saved, p)
			}
			continue
		}
		opt := dynamostore.CreateOptions{Dedup: true, By: by}
		if replaces != "" {
			opt.Supersedes = []string{replaces}
		}
		c, err := a.Store.Create(ctx, m, opt)
		if code := agentmem.ErrorCode(err); replaces != "" && (code == agentmem.EConflict || code == agentmem.ENotFound) {
			// It changed since it was read: save the learning beside it.
			resp.Notes = append(resp.Notes, fmt.Sprintf("memory %s, which learning %q replaces, changed meanwhile (%s); the learning is saved beside it", replaces, clip(l.Content), agentmem.ErrorMessage(err)))
			opt.Supersedes = nil
			c, err = a.Store.Create(ctx, m, opt)
		}
		if err != nil {
			return agentmem.ExtractionResult{}, saved, superseded, err
		}
		if c.Duplicate {
			resp.Skipped = append(resp.Skipped, agentmem.SkippedLearning{Content: l.Content, Reason: "duplicate of memory " + c.Memory.ID})
			continue
		}
		saved = append(saved, c.Memory)
		for _, o := range c.Superseded {
			superseded = append(superseded, o)
			delete(live, o.ID)
		}
	}
	resp.Saved = append(resp.Saved, saved...)
	resp.Superseded = superseded
	return resp, saved, superseded, nil
}

// replaceable returns the id of the live memory l (saved as m) may supersede: the one
// its replaces names, unless that is not a live memory of the scope (or
// was replaced by an earlier learning of the run), is pinned (people
// pin what automatic writers must not change), or has no term in common
// with l (a replacement corrects the same subject; a reference to an
// unrelated memory is a model's mistake, or its reading of run output that
// imitates the prompt's list of memories). A refused replaces is a note
// of the answer; the learning is saved as a new one.
func (a *API) replaceable(l agentmem.Learning, m agentmem.Memory, live map[string]agentmem.Memory, resp *agentmem.ExtractionResult) string {
	if l.Replaces == "" {
		return ""
	}
	old, ok := live[l.Replaces]
	switch {
	case !ok:
		resp.Notes = append(resp.Notes, fmt.Sprintf("learning %q replaces %s, which is not a live memory of this scope; it is saved as a new learning", clip(l.Content), l.Replaces))
		return ""
	case old.Pinned:
		resp.Notes = append(resp.Notes, fmt.Sprintf("learning %q replaces %s, which is pinned (only people change pinned memories); it is saved beside it", clip(l.Content), l.Replaces))
		return ""
	case !sameSubject(m, old):
		resp.Notes = append(resp.Notes, fmt.Sprintf("learning %q replaces %s, which it has no word in common with (a replacement corrects the same subject); it is saved beside it", clip(l.Content), l.Replaces))
		return ""
	}
	return old.ID
}

// sameSubject reports whether a memory and the one it replaces share at
// least one search term (stemmed, stopwords aside) in what they say:
// content and typed fields, not type or tags.
func sameSubject(m, old agentmem.Memory) bool {
	said := func(m agentmem.Memory) []string {
		return search.Tokenize(strings.Join([]string{m.Content, m.Rationale, m.Trigger, m.Context, m.Solution}, "\n"))
	}
	terms := map[string]bool{}
	for _, t := range said(old) {
		terms[t] = true
	}
	return slices.ContainsFunc(said(m), func(t string) bool { return terms[t] })
}

// clip shortens a learning's content for a note.
func clip(s string) string {
	if len(s) <= 80 {
		return s
	}
	cut := 77
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// recordDaily writes the run's summary to the agent's daily log, titled
// with the run id, for Deep Dream to consolidate. It runs after the
// learnings are saved and is best effort: a failure is logged and the
// answer says no record was written, but the learnings stay.
func (a *API) recordDaily(ctx context.Context, agent string, in agentmem.ExtractionInput, resp *agentmem.ExtractionResult) {
	if strings.TrimSpace(resp.Summary) == "" {
		return
	}
	outcome := "The run did not achieve its goal."
	if resp.Success {
		outcome = "The run achieved its goal."
	}
	content := strings.TrimSpace(resp.Summary) + "\n\n" + outcome
	if n := len(resp.Saved) + len(resp.Reinforced); n > 0 {
		content += fmt.Sprintf(" %d learning%s saved.", n, plural(n))
	}
	rec, err := a.Store.AppendDaily(ctx, agentmem.DailyRecord{AgentName: agent, ProjectID: in.ProjectID, Title: in.RunID, Content: content})
	if err != nil {
		a.Log.WarnContext(ctx, "run summary not written to the daily log", "agent", agent, "project", in.ProjectID, "runId", in.RunID, "err", err)
		return
	}
	resp.Daily = &rec
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// undo puts back the memories a failed extraction superseded, deletes
// what it saved and releases its claim, so that nothing is left
// half-written and a retry can run. It runs on a context of its own: the
// request's may be what ended.
func (a *API) undo(ctx context.Context, run dynamostore.Run, saved, superseded []agentmem.Memory) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	by := agentmem.ChangeBy{Kind: agentmem.BySystem, RunID: run.RunID, Note: "undo of a failed extraction"}
	for _, o := range superseded {
		if _, err := a.Store.RestoreVersion(cctx, o.AgentName, o.ID, o.Version-1, &o.Version, by); err != nil {
			a.Log.ErrorContext(ctx, "undo extraction: restore a superseded memory", "runId", run.RunID, "id", o.ID, "err", err)
		}
	}
	if len(saved) > 0 {
		if _, err := a.Store.DeleteMemories(cctx, saved); err != nil {
			a.Log.ErrorContext(ctx, "undo extraction: delete saved memories", "runId", run.RunID, "memories", len(saved), "err", err)
		}
	}
	if err := a.Store.ReleaseRun(cctx, run); err != nil {
		a.Log.ErrorContext(ctx, "undo extraction: release run", "runId", run.RunID, "err", err)
	}
}

// leaseUntil is when this request's claim on a run expires.
func leaseUntil(ctx context.Context) time.Time {
	if d, ok := ctx.Deadline(); ok {
		return d.Add(leaseMargin)
	}
	return time.Now().Add(routes.Timeouts[routes.Extraction] + leaseMargin)
}

func unavailable(cause error) error {
	return agentmem.Wrap(agentmem.ELLMUnavailable, cause, "no LLM is configured on the server (AGENTMEM_LLM=none): configure one, or extract on the client (agentmem extract --llm claude) and send the learnings")
}

// llmFailure turns an extraction failure into the error code the CLI
// reports as its warning; the failure stays its cause, for the log.
func llmFailure(err error, name string) error {
	switch {
	case llm.KindOf(err) == llm.KindNotConfigured:
		return unavailable(err)
	case errors.Is(err, extract.ErrUnparseable):
		return agentmem.Wrap(agentmem.ELLMFailed, err, "the LLM (%s) answered with neither learnings nor a statement that there are none; nothing was saved", name)
	case llm.KindOf(err) != "":
		return agentmem.Wrap(agentmem.ELLMFailed, err, "the LLM (%s) failed (%s); nothing was saved", name, llm.KindOf(err))
	}
	return agentmem.Wrap(agentmem.ELLMFailed, err, "the LLM (%s) failed; nothing was saved", name)
}
