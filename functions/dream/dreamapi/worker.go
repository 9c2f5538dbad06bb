package dreamapi

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream"
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

// one dreams the scope of one message and reports whether to retry it.
func (w *Worker) one(ctx context.Context, rec events.SQSMessage) (retry bool) {
	log := w.Log.With("messageId", rec.MessageId)
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
		log.WarnContext(ctx, "dream failed", "temporary", temporary, "err", err)
		return temporary
	}
	log.ErrorContext(ctx, "dream failed", "err", err)
	return true
}
