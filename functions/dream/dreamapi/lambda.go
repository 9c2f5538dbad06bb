package dreamapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/bulkjobs"
	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/dynamostore"
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
// shapes (Event), told apart by the payload: API Gateway v2 requests (the routes),
// the EventBridge Scheduler input {"action":"dispatch"} (the dispatcher)
// and SQS batches (the worker).
type Lambda struct {
	API        *httpapi.Handler
	Dispatcher *dream.Dispatcher
	Worker     *Worker
	// Store serves the operators' {"action":"recount"}.
	Store *dynamostore.Store
	Log   *slog.Logger
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
	h.RestrictAgents(deps.AgentAccess)
	concurrency := DefaultWorkerConcurrency
	if v := settings.DreamWorkerConcurrency.Get(deps.Getenv); v != "" {
		if concurrency, err = strconv.Atoi(v); err != nil || concurrency < 1 || concurrency > 100 {
			return nil, fmt.Errorf("%s=%q: want an integer from 1 to 100", settings.DreamWorkerConcurrency, v)
		}
	}
	d := &dream.Dispatcher{Store: deps.Store, Log: a.Log}
	w := &Worker{Dreamer: a.Dreamer, Store: deps.Store, Concurrency: concurrency, Log: a.Log}
	if u := settings.DreamQueueURL.Get(deps.Getenv); u != "" {
		q, err := sqsqueue.New(deps.AWS, u, settings.SQSEndpoint.Get(deps.Getenv))
		if err != nil {
			return nil, err
		}
		d.Queue = q
		w.Jobs = &bulkjobs.Queue{Q: q}
		a.Jobs = w.Jobs
	}
	return &Lambda{API: h, Dispatcher: d, Worker: w, Store: deps.Store, Log: a.Log}, nil
}

// NewEntry returns the dream function's Lambda entry point, built from
// deps (see NewLambda); the function's main runs it with
// lambdamain.RunEntry.
func NewEntry(deps lambdamain.Deps) (lambdamain.Entry[Event, Output], error) {
	l, err := NewLambda(deps)
	if err != nil {
		return nil, err
	}
	return l.Handle, nil
}

// ScheduleInput is an action event: the EventBridge Scheduler input of the
// nightly run ({"action":"dispatch"}), or an operator's
// {"action":"recount"} (aws lambda invoke), which rebuilds the counters of
// every scope from its memories and reports the drift it repaired.
type ScheduleInput struct {
	Action string `json:"action"`
}

// Actions of a ScheduleInput.
const (
	ActionDispatch = "dispatch"
	ActionRecount  = "recount"
)

// RecountResult is the answer to {"action":"recount"}: how many scopes
// were recounted and the counters of those that had drifted, before and
// after.
type RecountResult struct {
	Scopes  int                `json:"scopes"`
	Drifted []agentmem.Recount `json:"drifted"`
}

// Event is one event of the dream function, in one of its three shapes;
// exactly one field is set. Decoding it from JSON (as the Lambda runtime
// does) tells the shapes apart by the payload.
type Event struct {
	// API is an API Gateway HTTP API v2 request (the routes).
	API *events.APIGatewayV2HTTPRequest
	// Schedule is the EventBridge Scheduler input (the dispatcher).
	Schedule *ScheduleInput
	// SQS is a batch of dream messages (the worker).
	SQS *events.SQSEvent
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

// UnmarshalJSON decodes an event of any of the three shapes; a payload of
// none of them is an error.
func (e *Event) UnmarshalJSON(raw []byte) error {
	var p probe
	if err := json.Unmarshal(raw, &p); err != nil {
		var field *json.UnmarshalTypeError
		if errors.As(err, &field) && field.Field != "" {
			// An object whose action or Records has the wrong type.
			return fmt.Errorf("%w (its %s is a %s)", errUnrecognised, field.Field, field.Value)
		}
		return fmt.Errorf("dream: the event is not a JSON object: %w", err)
	}
	*e = Event{}
	switch {
	case len(p.Records) > 0 && p.Records[0].EventSource == "aws:sqs":
		e.SQS = new(events.SQSEvent)
		if err := json.Unmarshal(raw, e.SQS); err != nil {
			return fmt.Errorf("dream: decode SQS event: %w", err)
		}
	case p.Action != "":
		e.Schedule = &ScheduleInput{Action: p.Action}
	case p.RouteKey != "" && len(p.RequestContext) > 0:
		e.API = new(events.APIGatewayV2HTTPRequest)
		if err := json.Unmarshal(raw, e.API); err != nil {
			return fmt.Errorf("dream: decode API Gateway event: %w", err)
		}
	default:
		return errUnrecognised
	}
	return nil
}

var errUnrecognised = errors.New(`dream: unrecognised event: want an API Gateway v2 request, {"action":"dispatch"} or an SQS batch`)

// Output is the dream function's answer to an Event: the field of the
// event's shape is set, and it encodes to JSON as that answer alone.
type Output struct {
	API      *events.APIGatewayV2HTTPResponse
	Dispatch *dream.DispatchResult
	SQS      *events.SQSEventResponse
	Recount  *RecountResult
}

// MarshalJSON encodes the answer that is set (null when none is).
func (o Output) MarshalJSON() ([]byte, error) {
	switch {
	case o.API != nil:
		return json.Marshal(o.API)
	case o.Dispatch != nil:
		return json.Marshal(o.Dispatch)
	case o.SQS != nil:
		return json.Marshal(o.SQS)
	case o.Recount != nil:
		return json.Marshal(o.Recount)
	}
	return []byte("null"), nil
}

// Handle is the Lambda entry point (a lambdamain.Entry[Event, Output]):
// each shape of event goes to its handler.
func (l *Lambda) Handle(ctx context.Context, ev Event) (Output, error) {
	switch {
	case ev.SQS != nil:
		resp, err := l.Worker.Handle(ctx, *ev.SQS)
		return Output{SQS: &resp}, err
	case ev.Schedule != nil:
		switch ev.Schedule.Action {
		case ActionDispatch:
			res, err := l.Dispatcher.Dispatch(ctx)
			return Output{Dispatch: &res}, err
		case ActionRecount:
			drifted, n, err := l.Store.RecountAll(ctx)
			if drifted == nil {
				drifted = []agentmem.Recount{}
			}
			l.Log.InfoContext(ctx, "recounted every scope", "scopes", n, "drifted", len(drifted), "err", err)
			return Output{Recount: &RecountResult{Scopes: n, Drifted: drifted}}, err
		}
		return Output{}, fmt.Errorf("dream: unknown action %q (want %q or %q)", ev.Schedule.Action, ActionDispatch, ActionRecount)
	case ev.API != nil:
		resp, err := l.API.Handle(ctx, *ev.API)
		return Output{API: &resp}, err
	}
	return Output{}, errUnrecognised
}
