package dynamostore

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
)

// The write path. Every write that creates, deletes or rewrites memories
// of a scope is one scopeWrite: a DynamoDB transaction holding the memory
// operations, each with its condition (a put on a free createdAt, a delete
// of the memory still stored there with its id), the counter slots they
// change (slotUpdate, the sum of their deltas per slot) and whatever else
// must happen with them or not at all (an idempotency record, a job's
// progress). The transaction commits all of it or nothing, so the counters
// are exact whatever fails or dies, and a retry can tell from the record
// it wrote whether it already happened.
//
// A transaction holds at most maxTxItems items; bulk writes are cut into
// transactions of one counter slot each (deleteItems), so that their
// transactions do not contend with each other.

// maxTxItems is DynamoDB's limit of items in one transaction.
const maxTxItems = 100

// scopeWrite is one transaction on the memories of one scope.
type scopeWrite struct {
	s              *Store
	agent, project string
	ops            []func(*dynamo.WriteTx)
	deltas         map[int]*countDelta
	extra          []func(*dynamo.WriteTx)
}

// newScopeWrite starts a transaction on the scope agent+project.
func (s *Store) newScopeWrite(agentName, projectID string) *scopeWrite {
	return &scopeWrite{s: s, agent: agentName, project: projectID, deltas: map[int]*countDelta{}}
}

// count adds d to the counter slot slot.
func (w *scopeWrite) count(slot int, d countDelta) {
	if w.deltas[slot] == nil {
		w.deltas[slot] = &countDelta{}
	}
	w.deltas[slot].add(d)
}

// put adds a memory put; its index in the transaction is returned, for
// cancellation reasons.
func (w *scopeWrite) put(p *dynamo.Put, slot int, d countDelta) int {
	w.ops = append(w.ops, func(tx *dynamo.WriteTx) { tx.Put(p) })
	w.count(slot, d)
	return len(w.ops) - 1
}

// delete adds a memory delete.
func (w *scopeWrite) delete(del *dynamo.Delete, slot int, d countDelta) int {
	w.ops = append(w.ops, func(tx *dynamo.WriteTx) { tx.Delete(del) })
	w.count(slot, d)
	return len(w.ops) - 1
}

// update adds a memory update that changes slot by d (an empty d still
// moves the slot's seq: the scope's content changed).
func (w *scopeWrite) update(u *dynamo.Update, slot int, d countDelta) int {
	w.ops = append(w.ops, func(tx *dynamo.WriteTx) { tx.Update(u) })
	w.count(slot, d)
	return len(w.ops) - 1
}

// alsoPut adds a put of another item that must commit with the memory
// operations (an idempotency record); its index comes after every memory
// operation's.
func (w *scopeWrite) alsoPut(p *dynamo.Put) {
	w.extra = append(w.extra, func(tx *dynamo.WriteTx) { tx.Put(p) })
}

// alsoDelete adds a delete of another item (a gone record).
func (w *scopeWrite) alsoDelete(d *dynamo.Delete) {
	w.extra = append(w.extra, func(tx *dynamo.WriteTx) { tx.Delete(d) })
}

// alsoUpdate adds an update of another item (a job's progress).
func (w *scopeWrite) alsoUpdate(u *dynamo.Update) {
	w.extra = append(w.extra, func(tx *dynamo.WriteTx) { tx.Update(u) })
}

// extraIndex is the transaction index of the i-th also item.
func (w *scopeWrite) extraIndex(i int) int { return len(w.ops) + i }

// size is how many items the transaction holds.
func (w *scopeWrite) size() int { return len(w.ops) + len(w.extra) + len(w.deltas) }

// run commits the transaction. A cancelled transaction's error carries
// its reasons (cancelReasons). Transaction conflicts have been retried by
// the client (dynamo.RetryTxConflicts) by then, each attempt with the same
// client request token, so that an attempt whose answer was lost after it
// committed is not applied twice.
func (w *scopeWrite) run(ctx context.Context) error {
	if w.size() > maxTxItems {
		return fmt.Errorf("write to %s: %d items in one transaction, over DynamoDB's %d", agentmem.Scope(w.agent, w.project), w.size(), maxTxItems)
	}
	// The token makes the SDK's own retries of this transaction (after a
	// timeout or a lost answer) return its first outcome instead of
	// running it again (ClientRequestToken, ten minutes).
	tx := w.s.db.WriteTx().Idempotent(true)
	for _, op := range w.ops {
		op(tx)
	}
	for _, op := range w.extra {
		op(tx)
	}
	slots := make([]int, 0, len(w.deltas))
	for slot := range w.deltas {
		slots = append(slots, slot)
	}
	sort.Ints(slots)
	now := w.s.now()
	for _, slot := range slots {
		tx.Update(w.s.slotUpdate(w.agent, w.project, slot, *w.deltas[slot], now))
	}
	return tx.Run(ctx)
}

// cancelReasons returns the cancellation reason code of each item of a
// cancelled transaction ("ConditionalCheckFailed", "TransactionConflict",
// "None", ...), or nil when err is not a cancelled transaction.
func cancelReasons(err error) []string {
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		return nil
	}
	out := make([]string, len(tce.CancellationReasons))
	for i, r := range tce.CancellationReasons {
		out[i] = "None"
		if r.Code != nil {
			out[i] = *r.Code
		}
	}
	return out
}

// condFailed reports whether item i of a cancelled transaction failed its
// condition.
func condFailed(reasons []string, i int) bool {
	return i >= 0 && i < len(reasons) && reasons[i] == "ConditionalCheckFailed"
}
