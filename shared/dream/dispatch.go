package dream

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
)

// Message is the body of one queue message: one scope to dream.
type Message struct {
	AgentName string `json:"agentName"`
	ProjectID string `json:"projectId"`
	// PendingSince is when the scope's oldest undreamed record arrived.
	PendingSince string `json:"pendingSince,omitempty"`
}

// ParseMessage decodes and validates a queue message body.
func ParseMessage(body string) (Message, error) {
	var m Message
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		return Message{}, agentmem.Errorf(agentmem.EInvalid, "dream message is not a JSON object: %v", err)
	}
	if err := agentmem.ValidateAgentName(m.AgentName); err != nil {
		return Message{}, err
	}
	if err := agentmem.ValidateProjectID(m.ProjectID); err != nil {
		return Message{}, err
	}
	return m, nil
}

// Sender sends message bodies to the dream queue (package sqsqueue wraps
// Amazon SQS). It returns how many it could not send.
type Sender interface {
	Send(ctx context.Context, bodies []string) (failed int, err error)
}

// Dispatcher is the nightly schedule's target: it finds the scopes with
// undreamed daily content and queues one message per scope for the worker.
type Dispatcher struct {
	Store *dynamostore.Store
	Queue Sender
	Log   *slog.Logger
}

// DispatchResult is what one dispatch did.
type DispatchResult struct {
	Scopes int `json:"scopes"`
	Sent   int `json:"sent"`
	Failed int `json:"failed"`
	// ItemsRead is how many items the dispatcher read from DynamoDB: the
	// pending scopes, never the others.
	ItemsRead int64   `json:"itemsRead"`
	Capacity  float64 `json:"readCapacity"`
	Millis    int64   `json:"ms"`
}

// Dispatch queries the pending-index (never the memories table) and sends
// one message per pending scope. Scopes it could not queue stay pending
// and are found again by the next dispatch; the error says how many.
func (d *Dispatcher) Dispatch(ctx context.Context) (DispatchResult, error) {
	start := time.Now()
	if d.Queue == nil {
		return DispatchResult{}, fmt.Errorf("dispatch: no dream queue configured (set DREAM_QUEUE_URL)")
	}
	var bodies []string
	stats, err := d.Store.EachPendingScope(ctx, func(st dynamostore.DreamState) error {
		b, err := json.Marshal(Message{AgentName: st.AgentName, ProjectID: st.ProjectID, PendingSince: st.PendingSince})
		if err != nil {
			return err
		}
		bodies = append(bodies, string(b))
		return nil
	})
	res := DispatchResult{Scopes: len(bodies), ItemsRead: stats.Items, Capacity: stats.Capacity}
	if err != nil {
		return res, fmt.Errorf("dispatch: %w", err)
	}
	failed, err := d.Queue.Send(ctx, bodies)
	res.Failed, res.Sent = failed, len(bodies)-failed
	res.Millis = time.Since(start).Milliseconds()
	log := d.Log
	if log == nil {
		log = slog.Default()
	}
	log.InfoContext(ctx, "dispatched dreams", "scopes", res.Scopes, "sent", res.Sent, "failed", res.Failed, "itemsRead", res.ItemsRead, "ms", res.Millis)
	if err != nil {
		return res, fmt.Errorf("dispatch: %d of %d scopes not queued (they stay pending): %w", failed, len(bodies), err)
	}
	return res, nil
}
