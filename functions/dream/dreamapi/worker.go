package dreamapi

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/applog"
	"github.com/agentmem/agentmem/shared/bulkjobs"
	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/aws/aws-lambda-go/events"
	"golang.org/x/sync/errgroup"
)

// Worker dreams the scopes of an SQS batch, Concurrency at a time, and
// reports the messages to retry as batchItemFailures (the event source
// mapping must enable ReportBatchItemFailures).
type Worker struct {
	Dreamer     *dream.Dreamer
	Concurrency int
	Log         *slog.Logger
	// Store runs the jobs handed over (dynamostore.JobMessage): the bulk
	// deletes of the memories function and the dreams the API could not
	// wait for; Jobs queues them again while they are not done; without
	// Jobs, a job message is retried by SQS instead.
	Store *dynamostore.Store
	Jobs  bulkjobs.Continuer
}

// Handle processes one batch. A message is retried (listed as a failure)
// when its dream failed in a way a later attempt may not: a store error, a
// temporary LLM failure (timeout, throttling, server error), an LLM that
// is not configured, or a message that is not a dream message (so that it
// reaches the dead-letter queue). A dream that was skipped, found its
// scope busy (another dream holds the lease) or failed on the model's
// answer (recorded in the diary; the scope stays pending for the next
// night) is done.
func (w *Worker) Handle(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	var (
		mu       sync.Mutex
		failures []events.SQSBatchItemFailure
	)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, w.Concurrency))
	for _, rec := range ev.Records {
		g.Go(func() error {
			if retry := w.one(gctx, rec); retry {
				mu.Lock()
				failures = append(failures, events.SQSBatchItemFailure{ItemIdentifier: rec.MessageId})
				mu.Unlock()
			}
			return nil
		})
	}
	_ = g.Wait()
	return events.SQSEventResponse{BatchItemFailures: failures}, nil
}

// jobMargin is what a job run leaves of the worker's time.
const jobMargin = 10 * time.Second

// one handles one message (a bulk delete job, or a scope to dream) and
// reports whether to retry it.
func (w *Worker) one(ctx context.Context, rec events.SQSMessage) (retry bool) {
	log := w.Log.With("messageId", rec.MessageId)
	if ref, isJob, err := dynamostore.ParseJobMessage(rec.Body); isJob {
		if err != nil {
			log.ErrorContext(ctx, "not a job message", "err", err)
			return true
		}
		return w.job(ctx, log, ref)
	}
	msg, err := dream.ParseMessage(rec.Body)
	if err != nil {
		log.ErrorContext(ctx, "not a dream message", "err", err)
		return true
	}
	log = log.With("agent", msg.AgentName, "project", msg.ProjectID)
	res, err := w.Dreamer.Run(ctx, dream.Request{AgentName: msg.AgentName, ProjectID: msg.ProjectID, Trigger: agentmem.TriggerSchedule})
	switch {
	case err == nil:
		log.InfoContext(ctx, "dream done", "status", res.Status, "reason", res.Reason)
		return false
	case agentmem.ErrorCode(err) == agentmem.EBusy:
		log.InfoContext(ctx, "scope busy; another dream is running", "err", err)
		return false
	case agentmem.ErrorCode(err) == agentmem.ELLMFailed:
		// The dream started and failed on the model (recorded in the
		// diary); the cause tells whether a later attempt may succeed.
		var le *llm.Error
		temporary := errors.As(err, &le) && le.Temporary()
		log.WarnContext(ctx, applog.DreamFailed, "temporary", temporary, "err", err)
		return temporary
	}
	log.ErrorContext(ctx, applog.DreamFailed, "err", err)
	return true
}

// job runs a job (a bulk delete, or a dream) until it is done or the
// worker's time nears its end, then queues it again, and reports whether
// to retry the message (when it could not be queued again, or the
// database failed).
func (w *Worker) job(ctx context.Context, log *slog.Logger, ref dynamostore.JobRef) (retry bool) {
	log = log.With("agent", ref.AgentName, "job", ref.ID)
	if w.Store == nil {
		log.ErrorContext(ctx, "job message, but the worker has no store")
		return true
	}
	run := ctx
	if d, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		run, cancel = context.WithDeadline(ctx, d.Add(-jobMargin))
		defer cancel()
	}
	j, err := jobRunner{store: w.Store, dreamer: w.Dreamer, log: log}.run(run, ref)
	switch {
	case agentmem.ErrorCode(err) == agentmem.ENotFound:
		log.WarnContext(ctx, "job gone (expired)")
		return false
	case agentmem.ErrorCode(err) == agentmem.EBusy && w.Jobs != nil:
		// another dream holds the scope: try again once it may be over
		if err := w.Jobs.Continue(ctx, ref, busyRetry); err != nil {
			log.ErrorContext(ctx, "job not queued again; SQS retries the message", "err", err)
			return true
		}
		log.InfoContext(ctx, "job waits for the scope", "after", busyRetry)
		return false
	case err != nil:
		log.ErrorContext(ctx, "job run failed", "err", err)
		return true
	case j.Status != agentmem.JobRunning:
		log.InfoContext(ctx, "job over", "status", j.Status, "removed", j.Removed)
		return false
	case w.Jobs == nil:
		return true // SQS delivers it again after its visibility timeout
	}
	if err := w.Jobs.Continue(ctx, ref, 0); err != nil {
		log.ErrorContext(ctx, "job not queued again; SQS retries the message", "err", err)
		return true
	}
	log.InfoContext(ctx, "job goes on", "removed", j.Removed)
	return false
}
