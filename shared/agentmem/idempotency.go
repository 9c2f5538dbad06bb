package agentmem

import (
	"strings"
	"time"
)

// Idempotency of the writes a client may retry (create memory, append to
// the daily log, put a personality): the client sends a key with the
// request, in the IdempotencyHeader header or the body's clientToken field
// (as AWS APIs take a ClientToken), and the same key with the same request
// gets the first answer back instead of a second write. Keys are scoped to
// the agent and the route, and forgotten after IdempotencyRetention.
const (
	// IdempotencyHeader is the request header carrying an idempotency key.
	IdempotencyHeader = "Idempotency-Key"
	// ReplayedHeader is set to "true" on an answer replayed for a key.
	ReplayedHeader = "Idempotent-Replayed"
	// MaxIdempotencyKeyLen bounds a key.
	MaxIdempotencyKeyLen = 128
	// IdempotencyRetention is how long a key is remembered: a retry
	// later than this is a new request.
	IdempotencyRetention = 24 * time.Hour
)

// ValidateIdempotencyKey checks an idempotency key: 1 to
// MaxIdempotencyKeyLen characters of letters, digits and . _ - : ~ (a
// UUID or a ULID fits).
func ValidateIdempotencyKey(s string) error {
	switch {
	case s == "":
		return Errorf(EInvalid, "%s is empty", IdempotencyHeader)
	case len(s) > MaxIdempotencyKeyLen:
		return Errorf(EInvalid, "%s is %d characters; the limit is %d", IdempotencyHeader, len(s), MaxIdempotencyKeyLen)
	case strings.IndexFunc(s, func(r rune) bool { return !nameRune(r) && r != ':' && r != '~' }) >= 0:
		return Errorf(EInvalid, "%s may only contain letters, digits and . _ - : ~ (a UUID or a ULID)", IdempotencyHeader)
	}
	return nil
}

// IdempotencyKey returns the request's idempotency key from its header
// value and its body's clientToken, "" when neither is set. Both set and
// different is EInvalid; so is a malformed key.
func IdempotencyKey(header, clientToken string) (string, error) {
	key := header
	switch {
	case header == "" && clientToken == "":
		return "", nil
	case header == "":
		key = clientToken
	case clientToken != "" && clientToken != header:
		return "", Errorf(EInvalid, "the %s header and the body's clientToken differ; send one key", IdempotencyHeader)
	}
	if err := ValidateIdempotencyKey(key); err != nil {
		return "", err
	}
	return key, nil
}
