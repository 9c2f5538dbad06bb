package dreamapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/settings"
	"github.com/agentmem/agentmem/shared/sqsqueue"
	"github.com/aws/aws-lambda-go/events"
)

// DefaultWorkerConcurrency is how many dreams one worker invocation runs
// at once (DREAM_WORKER_CONCURRENCY). The event source's maximum
// concurrency caps the invocations; together they bound the load on the
// LLM.
const DefaultWorkerConcurrency = 4

// Lambda is the dream function's one entry point for its three event
// shapes, told apart by the payload: API Gateway v2 requests (the routes),
// the EventBridge Scheduler input {"action":"dispatch"} (the dispatcher)
// and SQS batches (the worker).
type Lambda struct {
	API        *httpapi.Handler
	Dispatcher *dream.Dispatcher
	Worker     *Worker
}

// NewLambda builds the entry point from deps. The dispatcher sends to
// DREAM_QUEUE_URL (AGENTMEM_SQS_ENDPOINT overrides the SQS endpoint); the
// worker runs DREAM_WORKER_CONCURRENCY dreams at once.
func NewLambda(deps lambdamain.Deps) (*Lambda, error) {
	a, err := newAPI(deps)
	if err != nil {
		return nil, err
	}
	h, err := a.handler()
	if err != nil {
		return nil, err
	}
	concurrency := DefaultWorkerConcurrency
	if v := settings.DreamWorkerConcurrency.Get(deps.Getenv); v != "" {
		if concurrency, err = strconv.Atoi(v); err != nil || concurrency < 1 || concurrency > 100 {
			return nil, fmt.Errorf("%s=%q: want an integer from 1 to 100", settings.DreamWorkerConcurrency, v)
		}
	}
	d := &dream.Dispatcher{Store: deps.Store, Log: a.Log}
	if u := settings.DreamQueueURL.Get(deps.Getenv); u != "" {
		q, err := sqsqueue.New(deps.AWS, u, settings.SQSEndpoint.Get(deps.Getenv))
		if err != nil {
			return nil, err
		}
		d.Queue = q
	}
	return &Lambda{API: h, Dispatcher: d, Worker: &Worker{Dreamer: a.Dreamer, Concurrency: concurrency, Log: a.Log}}, nil
}

// ScheduleInput is the EventBridge Scheduler input of the nightly run.
type ScheduleInput struct {
	Action string `json:"action"`
}

// probe holds what tells the event shapes apart.
type probe struct {
	Action  string `json:"action"`
	Records []struct {
		EventSource string `json:"eventSource"`
	} `json:"Records"`
	RouteKey       string          `json:"routeKey"`
	RequestContext json.RawMessage `json:"requestContext"`
}

// Handle is the Lambda handler: func(ctx, TIn) (TOut, error) with the
// event shape decided at run time.
func (l *Lambda) Handle(ctx context.Context, raw json.RawMessage) (any, error) {
	var p probe
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("dream: the event is not a JSON object: %w", err)
	}
	switch {
	case len(p.Records) > 0 && p.Records[0].EventSource == "aws:sqs":
		var ev events.SQSEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			return nil, fmt.Errorf("dream: decode SQS event: %w", err)
		}
		return l.Worker.Handle(ctx, ev)
	case p.Action != "":
		if p.Action != "dispatch" {
			return nil, fmt.Errorf("dream: unknown scheduled action %q (want \"dispatch\")", p.Action)
		}
		return l.Dispatcher.Dispatch(ctx)
	case p.RouteKey != "" && len(p.RequestContext) > 0:
		var ev events.APIGatewayV2HTTPRequest
		if err := json.Unmarshal(raw, &ev); err != nil {
			return nil, fmt.Errorf("dream: decode API Gateway event: %w", err)
		}
		return l.API.Handle(ctx, ev)
	}
	return nil, errors.New(`dream: unrecognised event: want an API Gateway v2 request, {"action":"dispatch"} or an SQS batch`)
}
