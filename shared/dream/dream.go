// Package dream is Deep Dream (seed 001, BRIEF §6): it consolidates a
// scope's daily records of the last N days and its current core into a new
// core with an LLM, refuses what the sources do not support, keeps pinned
// and (by default) manual memories, compresses old memories, writes the
// dream diary and can revert a dream. It also holds the nightly dispatcher
// that finds the scopes with new daily content.
//
// Every change to the core is all-or-nothing per scope: a dream computes
// its whole plan first (the memories to write, with ids and createdAt
// fixed, and the memories to delete, kept whole), stores it with a diary
// entry in state "committing" under the scope's lease, then applies it and
// marks it committed. A dream that dies in between leaves the marker, and
// the next dream of the scope replays the plan (every step is idempotent)
// before doing anything else.
package dream

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/markdown"
	"github.com/agentmem/agentmem/shared/prompts"
	"github.com/agentmem/agentmem/shared/search"
	"github.com/agentmem/agentmem/shared/settings"
)

// Defaults and bounds of the configuration and of requests.
const (
	DefaultLookbackDays      = 3
	MaxLookbackDays          = 30
	DefaultCompressAfterDays = 7
	MaxCompressAfterDays     = 3650
	DefaultLease             = 5 * time.Minute
	// DefaultConcurrency is how many model calls one dream has in flight
	// at once (AGENTMEM_DREAM_CONCURRENCY); MaxConcurrency bounds it.
	DefaultConcurrency = 4
	MaxConcurrency     = 32
	// Prompt budgets: the newest records and memories that fit are shown;
	// older records are counted in the diary, older memories are left as
	// they are.
	maxDailyPromptBytes = 192 << 10
	maxCorePromptBytes  = 64 << 10
	maxFixedPromptBytes = 16 << 10
	// Compression takes at most this many of the oldest eligible memories
	// per dream, and needs at least minCompress of them.
	maxCompress = 50
	minCompress = 2
)

// Config is Deep Dream's configuration.
type Config struct {
	LookbackDays int
	// CompressAfterDays: memories older than this are compressed (0: the
	// default; negative: never).
	CompressAfterDays int
	MinSupport        float64
	// Lease is how long one dream holds its scope without renewing it:
	// a running dream renews it every Lease/3 (see withLease), so a dream
	// may outlast it, and one that dies frees the scope after it.
	Lease time.Duration
	// Concurrency bounds the model calls one dream has in flight at once
	// (0: DefaultConcurrency): review parts, the halves of a part asked
	// again smaller, restate and verifier batches. The outcome does not depend on it
	// nor on the order the answers come in.
	Concurrency int
	// MaxTokens caps every answer of the dream's model calls (0:
	// DefaultMaxTokens); the work is split so that no answer needs more.
	MaxTokens int
	// NoVerify turns the verifier (the second opinion on each change)
	// off; it is on by default.
	NoVerify bool
	// NoRestate turns the restate pass (a second chance, in the cited
	// sources' own words, for additions and updates the support test
	// refused) off; it is on by default.
	NoRestate bool
}

// ConfigFromEnv reads the dream settings through getenv:
// AGENTMEM_DREAM_LOOKBACK_DAYS (default 3), AGENTMEM_DREAM_COMPRESS_AFTER_DAYS
// (default 7; 0 disables), AGENTMEM_DREAM_MIN_SUPPORT (default 0.5),
// AGENTMEM_DREAM_LEASE (a Go duration, default 5m),
// AGENTMEM_DREAM_MAX_TOKENS (default DefaultMaxTokens, 4096),
// AGENTMEM_DREAM_CONCURRENCY (default DefaultConcurrency, 4),
// AGENTMEM_DREAM_VERIFY (default true) and AGENTMEM_DREAM_RESTATE
// (default true); shared/settings documents each.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	cfg := Config{LookbackDays: DefaultLookbackDays, CompressAfterDays: DefaultCompressAfterDays,
		MinSupport: DefaultMinSupport, Lease: DefaultLease, MaxTokens: DefaultMaxTokens, Concurrency: DefaultConcurrency}
	ints := []struct {
		setting  *settings.Setting
		dst      *int
		min, max int
	}{
		{settings.DreamLookbackDays, &cfg.LookbackDays, 1, MaxLookbackDays},
		{settings.DreamCompressAfterDays, &cfg.CompressAfterDays, 0, MaxCompressAfterDays},
		{settings.DreamMaxTokens, &cfg.MaxTokens, MinMaxTokens, 1 << 20},
		{settings.DreamConcurrency, &cfg.Concurrency, 1, MaxConcurrency},
	}
	for _, f := range ints {
		if v := f.setting.Get(getenv); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < f.min || n > f.max {
				return cfg, fmt.Errorf("%s=%q: want an integer from %d to %d", f.setting, v, f.min, f.max)
			}
			*f.dst = n
		}
	}
	if cfg.CompressAfterDays == 0 {
		cfg.CompressAfterDays = -1 // 0 in the environment means never
	}
	if v := settings.DreamMinSupport.Get(getenv); v != "" {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x <= 0 || x > 1 {
			return cfg, fmt.Errorf("%s=%q: want a number in (0, 1]", settings.DreamMinSupport, v)
		}
		cfg.MinSupport = x
	}
	for _, f := range []struct {
		setting *settings.Setting
		off     *bool
	}{{settings.DreamVerify, &cfg.NoVerify}, {settings.DreamRestate, &cfg.NoRestate}} {
		if v := f.setting.Get(getenv); v != "" {
			on, err := strconv.ParseBool(v)
			if err != nil {
				return cfg, fmt.Errorf("%s=%q: want true or false", f.setting, v)
			}
			*f.off = !on
		}
	}
	if v := settings.DreamLease.Get(getenv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 10*time.Second {
			return cfg, fmt.Errorf("%s=%q: want a Go duration of at least 10s, e.g. 5m", settings.DreamLease, v)
		}
		cfg.Lease = d
	}
	return cfg, nil
}

// Request asks for one dream of one scope.
type Request struct {
	AgentName string
	ProjectID string
	// LookbackDays is the window of daily records (0: the configured
	// default; 1..MaxLookbackDays).
	LookbackDays int
	// KeepManual keeps manual memories as they are (nil: true). With
	// false, they are consolidated like the others.
	KeepManual *bool
	// Force dreams even when the daily content is unchanged since the last
	// dream (it still needs daily content).
	Force bool
	// CompressAfterDays overrides the configuration (0: no compression).
	CompressAfterDays *int
	// Trigger is agentmem.TriggerAPI or agentmem.TriggerSchedule.
	Trigger string
	// ModelBudget bounds the dream's model calls together (0: only the
	// LLM client's own timeout). A dream run through the API sets it so
	// that it answers before API Gateway's 30 s integration timeout: a
	// model slower than that fails the dream cleanly (recorded in the
	// diary, nothing changed) instead of leaving the caller with a 503
	// while it goes on. The store writes are not bounded by it, so a
	// commit is never cut short.
	ModelBudget time.Duration
	// MaxRounds, when > 0, bounds the rounds of model calls the dream's
	// review may take (its parts, Config.Concurrency at a time): a dream
	// whose scope needs more returns a *TooLargeError before any model
	// call, recording nothing, so that its caller can run it where it has
	// the time (the API hands it to a job). The restate pass's, the
	// verifier's and the compression's calls come after and are not
	// counted.
	MaxRounds int
	// Progress, when set, is told where the dream stands: at each phase
	// and after each model answer, from the goroutine that got it.
	Progress func(Progress)
}

// Progress is where a running dream stands.
type Progress struct {
	Phase agentmem.DreamPhase
	// Calls counts the model's answers so far (every phase).
	Calls int
	// Planned is how many parts the review was split into, one model
	// call each (a part asked again smaller takes two more).
	Planned int
}

// TooLargeError is Run's answer to a request whose review needs more
// rounds of model calls than Request.MaxRounds.
type TooLargeError struct {
	// Calls is the review's model calls, Rounds the rounds they take at
	// Concurrency at a time.
	Calls, Rounds, Concurrency, MaxRounds int
	// Compresses is set when the dream would also compress old memories,
	// a round of its own.
	Compresses bool
}

func (e *TooLargeError) Error() string {
	also := ""
	if e.Compresses {
		also = " and a compression call after it"
	}
	return fmt.Sprintf("the scope's review takes %d model calls%s (%d rounds of %d at a time), more than a request can wait for (%d %s)",
		e.Calls, also, e.Rounds, e.Concurrency, e.MaxRounds, map[bool]string{true: "round", false: "rounds"}[e.MaxRounds == 1])
}

// Validate checks the request.
func (r Request) Validate() error {
	if err := agentmem.ValidateAgentName(r.AgentName); err != nil {
		return err
	}
	if err := agentmem.ValidateProjectID(r.ProjectID); err != nil {
		return err
	}
	if r.LookbackDays < 0 || r.LookbackDays > MaxLookbackDays {
		return agentmem.Errorf(agentmem.EInvalid, "lookbackDays must be from 1 to %d", MaxLookbackDays)
	}
	if r.ModelBudget < 0 || r.MaxRounds < 0 {
		return agentmem.Errorf(agentmem.EInvalid, "the model budget and the rounds of model calls must not be negative")
	}
	if c := r.CompressAfterDays; c != nil && (*c < 0 || *c > MaxCompressAfterDays) {
		return agentmem.Errorf(agentmem.EInvalid, "compressAfterDays must be from 0 (never) to %d", MaxCompressAfterDays)
	}
	return nil
}

// Dreamer runs dreams. Its fields are set once; it is safe for concurrent
// use (the lease serialises dreams of one scope).
type Dreamer struct {
	Store  *dynamostore.Store
	LLM    llm.Client
	Log    *slog.Logger
	Config Config

	// failpoint, when set (by tests, through export_test.go), is called
	// between the commit steps ("begin", "created", "op" after each
	// change of a memory, "deleted"): an error stops the dream there, as
	// a crash would.
	failpoint func(step string) error
	// renewTicks, when set (by tests), replaces the lease's renewal
	// ticker: the lease is renewed on each value received; renewed, when
	// set, is called after each such renewal with its error.
	renewTicks <-chan time.Time
	renewed    func(error)
}

// New returns a dreamer with cfg, filling zero fields with the defaults.
func New(store *dynamostore.Store, client llm.Client, log *slog.Logger, cfg Config) *Dreamer {
	if cfg.LookbackDays == 0 {
		cfg.LookbackDays = DefaultLookbackDays
	}
	if cfg.CompressAfterDays == 0 {
		cfg.CompressAfterDays = DefaultCompressAfterDays
	}
	if cfg.MinSupport == 0 {
		cfg.MinSupport = DefaultMinSupport
	}
	if cfg.Lease == 0 {
		cfg.Lease = DefaultLease
	}
	if cfg.MaxTokens == 0 {
		cfg.MaxTokens = DefaultMaxTokens
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = DefaultConcurrency
	}
	cfg.Concurrency = min(cfg.Concurrency, MaxConcurrency)
	if log == nil {
		log = slog.Default()
	}
	if client == nil {
		client = llm.Disabled{}
	}
	return &Dreamer{Store: store, LLM: client, Log: log, Config: cfg}
}

func (d *Dreamer) now() time.Time { return d.Store.Now().UTC() }

// hit calls the dreamer's failpoint, if any, at a commit step.
func (d *Dreamer) hit(step string) error {
	if d.failpoint == nil {
		return nil
	}
	return d.failpoint(step)
}

// Run runs one dream of a scope, or skips it (no daily content in the
// window, or content unchanged since the last dream, unless forced). A
// dream of a scope whose lease another holds is EBusy; an LLM that is not
// configured is ELLMUnavailable (nothing recorded); an LLM failure or an
// unusable answer is ELLMFailed, recorded in the diary with nothing
// changed. Both are *agentmem.Error whose cause (Unwrap) is the LLM's
// error, so that llm.KindOf and errors.As(err, **llm.Error) tell a
// temporary failure.
func (d *Dreamer) Run(ctx context.Context, req Request) (agentmem.DreamResult, error) {
	if err := req.Validate(); err != nil {
		return agentmem.DreamResult{}, err
	}
	var res agentmem.DreamResult
	rolled, err := d.withLease(ctx, req.AgentName, req.ProjectID, func(l *lease, st dynamostore.DreamState) error {
		var err error
		res, err = d.run(ctx, req, l, st)
		return err
	})
	res.RolledForward = rolled
	return res, err
}

// scopeView is the core of a scope as one dream sees it.
type scopeView struct {
	fixed       []agentmem.Memory // kept as they are and shown read-only
	replaceable []agentmem.Memory // reviewed: kept, updated or retired by the answers
	untouched   int               // fixed ones past the prompt budget: kept, not shown
}

// run is one dream under the lease l. Until its commit it works on
// l.work, which the loss of the lease cancels; the commit runs on ctx.
func (d *Dreamer) run(ctx context.Context, req Request, l *lease, st dynamostore.DreamState) (agentmem.DreamResult, error) {
	id := l.owner
	now := d.now()
	days := req.LookbackDays
	if days == 0 {
		days = d.Config.LookbackDays
	}
	keepManual := req.KeepManual == nil || *req.KeepManual
	compressAfter := d.Config.CompressAfterDays
	if req.CompressAfterDays != nil {
		compressAfter = *req.CompressAfterDays
	}
	trigger := req.Trigger
	if trigger == "" {
		trigger = agentmem.TriggerAPI
	}
	agent, project := req.AgentName, req.ProjectID
	work := l.work
	// mctx bounds the model calls only (see Request.ModelBudget).
	mctx := work
	if req.ModelBudget > 0 {
		var cancel context.CancelFunc
		mctx, cancel = context.WithTimeout(work, req.ModelBudget)
		defer cancel()
	}
	// appendSeq was read with the lease, before the window: a record that
	// arrives from here on keeps the scope pending.
	seq := st.AppendSeq
	from := agentmem.Day(now).AddDate(0, 0, -(days - 1))
	to := agentmem.Day(now).AddDate(0, 0, 1)
	records, err := d.Store.DailyRecords(work, agent, project, from, to)
	if err != nil {
		return agentmem.DreamResult{}, l.or(err)
	}
	if len(records) == 0 {
		d.clearPending(ctx, agent, project, seq)
		return agentmem.DreamResult{Status: agentmem.DreamStatusSkipped, Reason: fmt.Sprintf("no daily records in the last %d days; the core stays as it is", days)}, nil
	}
	hash := hashRecords(records)
	if hash == st.LastHash && !req.Force {
		d.clearPending(ctx, agent, project, seq)
		return agentmem.DreamResult{Status: agentmem.DreamStatusSkipped, Reason: "the daily content is unchanged since the last dream (same hash); the core stays as it is"}, nil
	}

	var core []agentmem.Memory
	if err := d.Store.EachMemory(work, agent, project, func(m agentmem.Memory) error {
		core = append(core, m)
		return nil
	}); err != nil {
		return agentmem.DreamResult{}, l.or(err)
	}
	view := splitCore(core, keepManual)
	shown, leftOut := fitRecords(records, maxDailyPromptBytes)
	units := d.partition(view, shown)
	rounds := (len(units) + d.Config.Concurrency - 1) / d.Config.Concurrency
	compresses := compressAfter > 0 && compressible(view.replaceable, now, compressAfter) >= minCompress
	if compresses {
		rounds++ // the compression call comes after the review's
	}
	if req.MaxRounds > 0 && rounds > req.MaxRounds {
		return agentmem.DreamResult{}, &TooLargeError{Calls: len(units), Rounds: rounds, Concurrency: d.Config.Concurrency, MaxRounds: req.MaxRounds, Compresses: compresses}
	}

	p := prompts.Must("dream")
	dr := agentmem.Dream{
		ID: id, AgentName: agent, ProjectID: project, Kind: agentmem.DreamKindDream, Trigger: trigger,
		Date: now.Format(agentmem.DateLayout), StartedAt: agentmem.FormatTime(now),
		LookbackDays: days, WindowFrom: agentmem.FormatTime(from), WindowTo: agentmem.FormatTime(to),
		Records: len(shown), RecordsLeftOut: leftOut, Hash: hash, KeepManual: keepManual,
		Model: d.LLM.Name(), Prompt: p.ID(),
	}
	meta := map[string]string{"agent": agent, "project": project, "days": strconv.Itoa(days),
		"from": from.Format(agentmem.DateLayout), "to": to.AddDate(0, 0, -1).Format(agentmem.DateLayout)}
	progress := newProgress(req.Progress, len(units))
	progress.phase(agentmem.DreamPhaseReview)
	calls := d.newCalls(progress.answered)
	meter := &usageMeter{}
	answers, err := d.askAll(mctx, calls, units, meta, meter)
	usage := meter.get()
	dr.Usage = &usage
	if err != nil {
		if lost := l.lost(); lost != nil {
			return agentmem.DreamResult{}, lost
		}
		return agentmem.DreamResult{}, d.fail(ctx, dr, err)
	}
	if len(answers) > 1 {
		dr.Notes = append(dr.Notes, fmt.Sprintf("the work was split into %d model calls of at most %d output tokens each (%d asked again smaller after a cut-off answer)",
			len(answers), d.Config.MaxTokens, usage.Retries))
	}
	src := sourcesOf(view, shown, d.Config.MinSupport)
	rv := d.review(answers, src, core, agent, project, restated{})
	rs, rrep := d.restate(mctx, calls, rv.candidates, src)
	if len(rs.by) > 0 {
		// The review again, with the restatements that passed.
		rv = d.review(answers, src, core, agent, project, rs)
		for _, c := range rv.changes {
			if c.restated != "" {
				rrep.Restated++
			}
		}
	}
	dr.Restate = rrep
	if rrep.Status == agentmem.RestateFailed {
		dr.Notes = append(dr.Notes, "the restate pass failed; the refusals of its claims stand: "+rrep.Error)
	}
	dr.Diary = joinDiaries(rv.diaries)
	proposed := len(rv.changes) + len(rv.dropped)
	progress.phase(agentmem.DreamPhaseVerify)
	changes, refused, rep := d.verify(mctx, calls, rv.changes, src)
	dr.Verifier = rep
	if rep.Status == agentmem.VerifierFailed {
		dr.Notes = append(dr.Notes, "the verifier failed; the support test's result stands: "+rep.Error)
	}
	dr.Dropped = append(rv.dropped, refused...)
	if len(changes) == 0 && unsupportedOnly(dr.Dropped) {
		if lost := l.lost(); lost != nil {
			return agentmem.DreamResult{}, lost
		}
		capDropped(&dr)
		return agentmem.DreamResult{}, d.fail(ctx, dr, agentmem.Errorf(agentmem.ELLMFailed, "none of the answer's %d operations is supported by the sources it cites", proposed))
	}
	plan, originals := d.planOf(id, changes, src, dr.Dropped, now)
	touched := map[string]bool{}
	for _, c := range changes {
		touched[c.memory.ID] = true
	}
	var unchanged []agentmem.Memory
	for _, m := range view.replaceable {
		if !touched[m.ID] {
			unchanged = append(unchanged, m)
		}
	}
	dr.Unchanged = len(unchanged)
	dr.Kept = len(view.fixed) + view.untouched

	if compressAfter > 0 {
		progress.phase(agentmem.DreamPhaseCompress)
		cp := d.compress(mctx, calls, unchanged, agent, project, now, compressAfter)
		if cp.usage.Calls > 0 {
			dr.Usage.Add(cp.usage)
		}
		dr.Dropped = append(dr.Dropped, cp.dropped...)
		dr.Notes = append(dr.Notes, cp.notes...)
		if len(cp.create) > 0 {
			d.addCompression(&plan, id, cp)
			dr.Compressed = len(cp.remove)
			dr.Unchanged -= len(cp.remove)
		}
	}
	dr.Operations = operationsOf(plan)
	for i, op := range dr.Operations {
		dr.Operations[i].Restated = originals[op.MemoryID]
	}
	for _, op := range dr.Operations {
		switch op.Op {
		case agentmem.OpAdd:
			dr.Created++
		case agentmem.OpUpdate:
			dr.Updated++
		case agentmem.OpRetire:
			dr.Retired++
		}
	}
	capOperations(&dr)
	capDropped(&dr)

	progress.phase(agentmem.DreamPhaseCommit)
	if err := d.hit("begin"); err != nil {
		return agentmem.DreamResult{}, err
	}
	// The lease, renewed once more: a dream that lost it commits nothing
	// (BeginDream's transaction checks it again).
	if err := l.check(ctx); err != nil {
		return agentmem.DreamResult{}, err
	}
	if err := d.Store.BeginDream(ctx, dr, plan, id); err != nil {
		return agentmem.DreamResult{}, err
	}
	notes, err := d.apply(ctx, agent, plan)
	if err != nil {
		return agentmem.DreamResult{}, fmt.Errorf("apply dream %s (the next dream of the scope finishes it): %w", id, err)
	}
	dr.Notes = append(dr.Notes, notes...)
	dr.FinishedAt = agentmem.FormatTime(d.now())
	if err := d.Store.FinishDream(ctx, dr, hash); err != nil {
		return agentmem.DreamResult{}, fmt.Errorf("finish dream %s (the next dream of the scope finishes it): %w", id, err)
	}
	d.clearPending(ctx, agent, project, seq)
	dr.Status = agentmem.DreamCommitted
	d.Log.InfoContext(ctx, "dreamed", "agent", agent, "project", project, "dream", id, "records", len(shown),
		"calls", dr.Usage.Calls, "inputTokens", dr.Usage.InputTokens, "outputTokens", dr.Usage.OutputTokens,
		"created", dr.Created, "updated", dr.Updated, "retired", dr.Retired, "unchanged", dr.Unchanged, "kept", dr.Kept,
		"dropped", len(dr.Dropped), "compressed", dr.Compressed)
	return agentmem.DreamResult{Status: agentmem.DreamStatusDreamed, Dream: &dr}, nil
}

// progress reports a dream's progress to Request.Progress, if set.
type progress struct {
	report  func(Progress)
	planned int
	mu      sync.Mutex
	phaseOf agentmem.DreamPhase
	calls   int
}

func newProgress(report func(Progress), planned int) *progress {
	return &progress{report: report, planned: planned}
}

func (p *progress) phase(ph agentmem.DreamPhase) {
	if p.report == nil {
		return
	}
	p.mu.Lock()
	p.phaseOf = ph
	now := Progress{Phase: ph, Calls: p.calls, Planned: p.planned}
	p.mu.Unlock()
	p.report(now)
}

func (p *progress) answered(n int) {
	if p.report == nil {
		return
	}
	p.mu.Lock()
	p.calls = max(p.calls, n)
	now := Progress{Phase: p.phaseOf, Calls: p.calls, Planned: p.planned}
	p.mu.Unlock()
	p.report(now)
}

// unsupportedOnly reports whether an answer that changed nothing had
// operations and all of them were refused as unsupported, uncited or
// invalid: a model that only fabricates fails the dream (a metric and an
// alarm), while one whose changes were already made (duplicates) or not
// allowed does not.
func unsupportedOnly(dropped []agentmem.DroppedBullet) bool {
	for _, b := range dropped {
		switch b.Class {
		case ClassDuplicate, ClassConflictingOp, ClassFixedMemory:
			return false
		}
	}
	return len(dropped) > 0
}

// joinDiaries is the dream's prose: each answer's, in order, within
// MaxDiaryBytes.
func joinDiaries(ds []string) string {
	return truncate(strings.Join(ds, "\n\n"), MaxDiaryBytes)
}

// A diary entry is one DynamoDB item (at most 400 KB): the operations and
// refusals it lists are bounded in number and in bytes; the plan holds
// every operation.
const (
	maxDropped        = 100
	maxListedOpsBytes = 192 << 10
	maxDroppedBytes   = 96 << 10
)

func listSize(texts []string) int {
	n := 0
	for _, t := range texts {
		n += len(t) + 4
	}
	return n
}

// capOperations bounds the operations an entry lists.
func capOperations(dr *agentmem.Dream) {
	size, n := 0, 0
	for ; n < len(dr.Operations) && n < agentmem.MaxListedOperations; n++ {
		o := dr.Operations[n]
		if size += len(o.Content) + len(o.Before) + len(o.Restated) + len(o.Note) + listSize(o.Citations) + 160; size > maxListedOpsBytes {
			break
		}
	}
	if rest := len(dr.Operations) - n; rest > 0 {
		dr.Operations = dr.Operations[:n]
		dr.Notes = append(dr.Notes, fmt.Sprintf("%d more changes are in the dream's plan; only the first %d are listed", rest, n))
	}
}

// capDropped bounds the refused operations an entry lists, so that an
// answer full of invented operations still fits in one item.
func capDropped(dr *agentmem.Dream) {
	size, n := 0, 0
	for ; n < len(dr.Dropped) && n < maxDropped; n++ {
		b := dr.Dropped[n]
		if size += len(b.Content) + len(b.Reason) + listSize(b.Missing) + listSize(b.Citations) + 120; size > maxDroppedBytes {
			break
		}
	}
	if rest := len(dr.Dropped) - n; rest > 0 {
		dr.Dropped = dr.Dropped[:n]
		dr.Notes = append(dr.Notes, fmt.Sprintf("%d more operations were refused; only the first %d are listed", rest, n))
	}
}

// maxFailureBytes bounds a failed dream's error in its diary entry and
// answer.
const maxFailureBytes = 2 << 10

// fail records a failed dream in the diary and returns its error. An LLM
// that is not configured is reported as such and not recorded.
func (d *Dreamer) fail(ctx context.Context, dr agentmem.Dream, cause error) error {
	if llm.KindOf(cause) == llm.KindNotConfigured {
		return agentmem.Wrap(agentmem.ELLMUnavailable, cause, "Deep Dream needs an LLM: set AGENTMEM_LLM (bedrock, anthropic, openai or claude) and its settings")
	}
	message := "the LLM failed: " + llmMessage(cause)
	var ae *agentmem.Error
	if errors.As(cause, &ae) && ae.Code == agentmem.ELLMFailed {
		message = ae.Message
	}
	// The diary entry must be writable whatever the cause says.
	message = truncate(message, maxFailureBytes)
	dr.Status, dr.Error, dr.FinishedAt = agentmem.DreamFailed, message, agentmem.FormatTime(d.now())
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := d.Store.RecordDream(rctx, dr); err != nil {
		d.Log.ErrorContext(ctx, "failed dream not recorded in the diary", "dream", dr.ID, "err", err)
	}
	d.Log.WarnContext(ctx, "dream failed; nothing changed", "agent", dr.AgentName, "project", dr.ProjectID, "dream", dr.ID, "err", cause)
	return agentmem.Wrap(agentmem.ELLMFailed, fmt.Errorf("dream %s: %w", dr.ID, cause), "%s", message)
}

// llmMessage is a failure's text for the diary: the *llm.Error's kind and
// message, without provider internals beyond that.
func llmMessage(err error) string {
	var le *llm.Error
	if errors.As(err, &le) {
		msg := string(le.Kind)
		if le.Status != 0 {
			msg += fmt.Sprintf(" (HTTP %d)", le.Status)
		}
		if le.Message != "" {
			msg += ": " + le.Message
		}
		return msg
	}
	return agentmem.ErrorMessage(err)
}

func (d *Dreamer) clearPending(ctx context.Context, agent, project string, seq int64) {
	if _, err := d.Store.ClearPending(ctx, agent, project, seq); err != nil {
		// The scope stays pending: the next dispatch finds it and the
		// dream skips on the same hash.
		d.Log.WarnContext(ctx, "pending mark not cleared", "agent", agent, "project", project, "err", err)
	}
}

// splitCore separates the memories the dream keeps as they are (pinned,
// and manual when keepManual), shown read-only within their prompt
// budget (older ones past it are kept untouched), from those it reviews
// (every other memory, newest first, in as many model calls as they
// need).
func splitCore(core []agentmem.Memory, keepManual bool) scopeView {
	var v scopeView
	fixedBytes := 0
	for _, m := range core { // newest first
		if m.Pinned || (keepManual && m.Source == agentmem.SourceManual) {
			if fixedBytes += len(claimText(m)) + 16; fixedBytes <= maxFixedPromptBytes {
				v.fixed = append(v.fixed, m)
			} else {
				v.untouched++
			}
			continue
		}
		v.replaceable = append(v.replaceable, m)
	}
	return v
}

// fitRecords returns the newest records that fit in budget bytes, in time
// order, and how many older ones did not fit.
func fitRecords(records []agentmem.DailyRecord, budget int) ([]agentmem.DailyRecord, int) {
	n, size := 0, 0
	for i := len(records) - 1; i >= 0; i-- {
		size += len(records[i].Title) + len(records[i].Content) + 32
		if size > budget && n > 0 {
			break
		}
		n++
	}
	return records[len(records)-n:], len(records) - n
}

// hashRecords is the hash of the window's daily content: every record's
// id, time, title and content, in order.
func hashRecords(records []agentmem.DailyRecord) string {
	h := sha256.New()
	for _, r := range records {
		for _, s := range []string{r.ID, r.At, r.Title, r.Content} {
			h.Write([]byte(s))
			h.Write([]byte{0})
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

func orNone(s, none string) string {
	if s = strings.TrimSpace(s); s == "" {
		return none
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// memoryKey identifies a memory's meaning: type and normalised rendering
// (content and typed fields).
func memoryKey(m agentmem.Memory) string {
	m.Pinned = false
	return string(m.Type) + "\x00" + search.NormalizeText(markdown.Bullet(m))
}

// validMemory applies the domain's rules for stored memories to a memory
// the model wrote.
func validMemory(m agentmem.Memory) error {
	in := agentmem.MemoryInput{ProjectID: m.ProjectID, Content: m.Content, Type: m.Type, Rationale: m.Rationale,
		Status: m.Status, Trigger: m.Trigger, Context: m.Context, Solution: m.Solution, Confidence: m.Confidence}
	return in.Validate()
}

// rollForward finishes the commit ref that an earlier run began: it
// replays the stored plan (idempotent), repairs the counters and marks the
// entry committed.
func (d *Dreamer) rollForward(ctx context.Context, agent, project, ref string) error {
	dr, err := d.Store.DreamByRef(ctx, agent, project, ref)
	if err != nil {
		return fmt.Errorf("roll forward %s: %w", ref, err)
	}
	if dr.Status == agentmem.DreamCommitting {
		plan, err := d.Store.DreamPlanOf(ctx, dr)
		if err != nil {
			return fmt.Errorf("roll forward %s: %w", ref, err)
		}
		notes, err := d.apply(ctx, agent, plan)
		if err != nil {
			return fmt.Errorf("roll forward %s: %w", ref, err)
		}
		dr.Notes = append(dr.Notes, notes...)
		if _, err := d.Store.RecountScope(ctx, agent, project); err != nil {
			return fmt.Errorf("roll forward %s: %w", ref, err)
		}
	}
	hash := ""
	if dr.Kind == agentmem.DreamKindDream {
		hash = dr.Hash
	}
	if err := d.Store.FinishDream(ctx, dr, hash); err != nil {
		return fmt.Errorf("roll forward %s: %w", ref, err)
	}
	d.Log.InfoContext(ctx, "rolled forward an interrupted commit", "agent", agent, "project", project, "dream", ref)
	return nil
}
