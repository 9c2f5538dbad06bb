package dynamostore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/guregu/dynamo/v2"
)

// Once makes one write idempotent (agentmem.IdempotencyKey): the client's
// key, scoped to the agent and the route it came through, and the request
// it came with. The write's result is stored under the key in the same
// transaction as the write itself (item "idem#<agent>" / "<route>#<key>",
// expiring after agentmem.IdempotencyRetention), so that a retry with the
// same key and the same request gets the first result back and nothing is
// written twice, whether the first call finished, failed or died; the
// same key with another request is agentmem.EIdempotencyMismatch.
// CreateMemoryOnce, AppendDailyOnce and PutPersonalityOnce take one.
type Once struct {
	// Key is the client's idempotency key ("" makes the write an
	// ordinary one).
	Key string
	// Route names the route (routes.Name); with Agent it scopes the key.
	Route string
	Agent string
	// Request is the request in a canonical form (the decoded,
	// normalized body re-encoded); only its SHA-256 is stored.
	Request []byte
}

// onceItem is an idempotency record in the journal.
type onceItem struct {
	PK string `dynamo:"pk,hash"`
	SK string `dynamo:"sk,range"`
	// Hash is the hex SHA-256 of the request.
	Hash string `dynamo:"hash"`
	// Result is the write's result as the store encodes it (JSON).
	Result    []byte `dynamo:"result"`
	CreatedAt string `dynamo:"createdAt"`
	ExpiresAt int64  `dynamo:"expiresAt"`
}

func (o Once) keys() (pk, sk string) { return "idem#" + o.Agent, o.Route + "#" + o.Key }

func (o Once) hash() string {
	h := sha256.Sum256(o.Request)
	return hex.EncodeToString(h[:])
}

// onceRecord returns the conditional put of o's record holding result, to
// run in the transaction of the write: it fails when a live record holds
// the key (a concurrent or earlier call with it committed first).
func (s *Store) onceRecord(o Once, result any) (*dynamo.Put, error) {
	raw, err := json.Marshal(result)
	if err != nil {
		return nil, fmt.Errorf("encode the result kept for idempotency key %s: %w", o.Key, err)
	}
	now := s.now()
	pk, sk := o.keys()
	return s.journal.Put(onceItem{PK: pk, SK: sk, Hash: o.hash(), Result: raw,
		CreatedAt: agentmem.FormatTime(now), ExpiresAt: now.Add(agentmem.IdempotencyRetention).Unix()}).
		If("attribute_not_exists($) OR $ < ?", "pk", "expiresAt", now.Unix()), nil
}

// replay looks for o's live record: when there is one for the same request
// it decodes the stored result into out and returns true; for another
// request it returns agentmem.EIdempotencyMismatch.
func (s *Store) replay(ctx context.Context, o Once, out any) (bool, error) {
	pk, sk := o.keys()
	var it onceItem
	err := s.journal.Get("pk", pk).Range("sk", dynamo.Equal, sk).Consistent(true).One(ctx, &it)
	switch {
	case notFound(err):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("read idempotency key %s: %w", o.Key, err)
	case it.ExpiresAt < s.now().Unix():
		// Expired, not yet removed by TTL. Live through the second
		// expiresAt names, as onceRecord's condition has it, so that
		// the read and the write agree on the key.
		return false, nil
	case it.Hash != o.hash():
		return false, agentmem.Errorf(agentmem.EIdempotencyMismatch,
			"%s %q was already used for another request to this route (made at %s); send a new key for a new request",
			agentmem.IdempotencyHeader, o.Key, it.CreatedAt)
	}
	if err := json.Unmarshal(it.Result, out); err != nil {
		return false, fmt.Errorf("decode the result kept for idempotency key %s: %w", o.Key, err)
	}
	return true, nil
}

// replayAfterConflict is replay after a transaction failed on o's record:
// a call with the key committed first (this one's first attempt, or
// another), so its record is there. The write paths do not look for the
// record before writing: the record's condition in their transaction finds
// it, which costs a retry nothing more than the first call.
func (s *Store) replayAfterConflict(ctx context.Context, o Once, out any) error {
	ok, err := s.replay(ctx, o, out)
	switch {
	case err != nil:
		return err
	case !ok:
		return agentmem.Errorf(agentmem.EConflict, "another request with %s %q is being written; retry", agentmem.IdempotencyHeader, o.Key)
	}
	return nil
}

// NewOnce returns the Once of a request: key (agentmem.IdempotencyKey),
// the route and agent that scope it, and the request (the decoded,
// normalized body with its client token cleared), encoded as JSON for its
// hash. An empty key gives an empty Once (no idempotency).
func NewOnce(key, route, agent string, request any) (Once, error) {
	if key == "" {
		return Once{}, nil
	}
	raw, err := json.Marshal(request)
	if err != nil {
		return Once{}, fmt.Errorf("encode the request of idempotency key %s: %w", key, err)
	}
	return Once{Key: key, Route: route, Agent: agent, Request: raw}, nil
}
