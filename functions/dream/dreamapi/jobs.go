package dreamapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/applog"
	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/routes"
)

// A dream asked for through the API must answer within API Gateway's
// 30 s, its model calls within ModelBudget (22 s). A scope whose review
// takes more than APIMaxRounds rounds of model calls (its parts,
// AGENTMEM_DREAM_CONCURRENCY at a time; a compression of old memories
// after the review is a round of its own) cannot: the dream stops before
// its first model call (dream.TooLargeError), and the request hands it to
// a job (dynamostore.StartJob, kind dream) and answers 202 with the job.
// The job runs where a dream has the function's whole timeout: the dream
// function's SQS worker (a {"dreamJob": ...} message on the dream queue),
// or a goroutine of this process under make dev. GET .../jobs/{jobId}
// follows it: its phase, the model calls answered, and when it is done
// the dream's result.
const (
	// APIMaxRounds is how many rounds of model calls a dream asked for
	// through the API may take before it goes to a job: one, all its
	// review parts asked at once, then the verifier; a dream that would
	// also compress old memories goes to a job.
	APIMaxRounds = 1
	// busyRetry is how long a dream job that found its scope held by
	// another dream waits before it runs again.
	busyRetry = time.Minute
	// dreamJobCommitMargin is what a dream job keeps of its run's time
	// for the commit: its model calls end this long before the deadline.
	dreamJobCommitMargin = 20 * time.Second
	// minDreamJobTime is the least time a run needs to start a dream job;
	// with less, the job waits for the next run.
	minDreamJobTime = 2 * dreamJobCommitMargin
)

// queueDream hands the dream of in to a job and answers 202 with it.
func (a *API) queueDream(ctx context.Context, agent string, in agentmem.CreateDreamInput, why *dream.TooLargeError) (httpapi.Response, error) {
	j, err := a.Store.StartJob(ctx, agentmem.Job{Kind: agentmem.JobDream, AgentName: agent, ProjectID: in.ProjectID, DreamInput: &in})
	if err != nil {
		return httpapi.Response{}, err
	}
	ref := dynamostore.JobRef{AgentName: agent, ID: j.ID, Dream: true}
	if err := a.Jobs.Continue(ctx, ref, 0); err != nil {
		// No one will run it: end it, so that no caller waits for it.
		if _, owner, held, herr := a.Store.HoldJob(ctx, agent, j.ID, time.Now().Add(time.Minute)); herr == nil && held {
			_, _ = a.Store.EndJob(ctx, agent, j.ID, owner, agentmem.JobFailed, "the dream could not be queued; nothing changed", nil)
		}
		return httpapi.Response{}, agentmem.Wrap(agentmem.EUnavailable, err, "the dream of this scope needs a background job, which could not be queued; try again")
	}
	a.Log.InfoContext(ctx, "dream handed to a job", "agent", agent, "project", in.ProjectID, "job", j.ID,
		"calls", why.Calls, "rounds", why.Rounds)
	location := fmt.Sprintf("/api/agents/%s/jobs/%s", agent, j.ID)
	resp := httpapi.JSON(http.StatusAccepted, agentmem.DreamResult{
		Status: agentmem.DreamStatusQueued, JobID: j.ID,
		Reason: fmt.Sprintf("%s: the dream runs in the background as job %s (GET %s)", why, j.ID, location),
	})
	resp.Headers["Location"] = location
	return resp, nil
}

// jobRunner runs the jobs the dream function is handed: the bulk deletes
// of the memories function (dynamostore.RunJob) and dream jobs.
type jobRunner struct {
	store   *dynamostore.Store
	dreamer *dream.Dreamer
	log     *slog.Logger
}

// run runs the job ref once, within ctx's deadline, and returns it as it
// stands: running while it must be run again.
func (r jobRunner) run(ctx context.Context, ref dynamostore.JobRef) (agentmem.Job, error) {
	if !ref.Dream {
		return r.store.RunJob(ctx, ref.AgentName, ref.ID)
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(routes.Timeouts[routes.Dream])
	}
	if time.Until(deadline) < minDreamJobTime {
		return r.store.GetJob(ctx, ref.AgentName, ref.ID) // too little time: the next run dreams
	}
	j, owner, held, err := r.store.HoldJob(ctx, ref.AgentName, ref.ID, deadline)
	if err != nil || !held {
		return j, err // over, or another run holds it
	}
	log := r.log.With("agent", j.AgentName, "project", j.ProjectID, "job", j.ID)
	if j.Kind != agentmem.JobDream || j.DreamInput == nil {
		return r.store.EndJob(ctx, j.AgentName, j.ID, owner, agentmem.JobFailed, "a dream job message named a job that is not a dream; nothing changed", nil)
	}
	in := *j.DreamInput
	req := dream.Request{AgentName: j.AgentName, ProjectID: j.ProjectID, KeepManual: in.KeepManual, Force: in.Force,
		CompressAfterDays: in.CompressAfterDays, Trigger: agentmem.TriggerAPI,
		// The model calls end in time for the commit.
		ModelBudget: max(time.Until(deadline)-dreamJobCommitMargin, time.Second)}
	if in.LookbackDays != nil {
		req.LookbackDays = *in.LookbackDays
	}
	pw := newProgressWriter(ctx, r.store, j, owner, log)
	req.Progress = pw.report
	res, err := r.dreamer.Run(ctx, req)
	pw.stop()
	switch code := agentmem.ErrorCode(err); {
	case err == nil:
		log.InfoContext(ctx, "dream job done", "status", res.Status)
		return r.store.EndJob(ctx, j.AgentName, j.ID, owner, agentmem.JobDone, "", summary(res))
	case code == agentmem.EUnavailable:
		// The database failed: worth another run.
		log.WarnContext(ctx, "dream job interrupted; it runs again", "err", err)
		r.store.ReleaseJob(ctx, j.AgentName, j.ID, owner)
		return j, err
	case code == agentmem.EBusy:
		// Another dream holds the scope (the nightly one, say): its lease
		// ends with it, so the job runs again later, as after a database
		// failure, instead of failing.
		log.InfoContext(ctx, "dream job found the scope busy; it runs again", "err", err)
		r.store.ReleaseJob(ctx, j.AgentName, j.ID, owner)
		return j, err
	default:
		if code != agentmem.ELLMUnavailable && code != agentmem.EInvalid {
			log.WarnContext(ctx, applog.DreamFailed, "trigger", agentmem.TriggerAPI, "err", err)
		}
		msg := agentmem.ErrorMessage(err)
		var ae *agentmem.Error
		if !errors.As(err, &ae) {
			msg = "the dream stopped: " + err.Error()
		}
		return r.store.EndJob(ctx, j.AgentName, j.ID, owner, agentmem.JobFailed, msg, nil)
	}
}

// summary is the result a dream job keeps: the diary entry without its
// list of changes (up to 192 KB; GET .../dreams/{date} has it), so that
// the job stays one small item.
func summary(res agentmem.DreamResult) *agentmem.DreamResult {
	if res.Dream != nil {
		d := *res.Dream
		d.Operations = nil
		res.Dream = &d
	}
	return &res
}

// progressWriter records a dream job's progress as the dream reports it,
// in a goroutine of its own (a write never holds the dream up), the
// latest report replacing those not yet written.
type progressWriter struct {
	store *dynamostore.Store
	job   agentmem.Job
	owner string
	log   *slog.Logger

	mu      sync.Mutex
	latest  dream.Progress
	pending bool
	wake    chan struct{}
	quit    chan struct{}
	done    chan struct{}
}

func newProgressWriter(ctx context.Context, st *dynamostore.Store, j agentmem.Job, owner string, log *slog.Logger) *progressWriter {
	w := &progressWriter{store: st, job: j, owner: owner, log: log,
		wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go w.loop(ctx)
	return w
}

// report takes the dream's latest progress (dream.Request.Progress).
func (w *progressWriter) report(p dream.Progress) {
	w.mu.Lock()
	if p.Phase != w.latest.Phase || p.Calls > w.latest.Calls {
		w.latest, w.pending = dream.Progress{Phase: p.Phase, Calls: max(p.Calls, w.latest.Calls), Planned: p.Planned}, true
	}
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *progressWriter) loop(ctx context.Context) {
	defer close(w.done)
	for {
		select {
		case <-w.wake:
			w.write(ctx)
		case <-w.quit:
			w.write(ctx)
			return
		}
	}
}

func (w *progressWriter) write(ctx context.Context) {
	w.mu.Lock()
	p, pending := w.latest, w.pending
	w.pending = false
	w.mu.Unlock()
	if !pending {
		return
	}
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := w.store.ReportDreamProgress(wctx, w.job.AgentName, w.job.ID, w.owner, p.Phase, p.Calls, p.Planned); err != nil {
		w.log.WarnContext(ctx, "dream job progress not recorded", "err", err)
	}
}

// stop writes the last report and ends the writer.
func (w *progressWriter) stop() {
	close(w.quit)
	<-w.done
}
