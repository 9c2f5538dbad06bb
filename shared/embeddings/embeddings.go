// Package embeddings is the small interface through which memory texts
// become vectors for semantic search ([Embedder]), the failures embedders
// report ([Error], [Kind]), the configuration that selects one ([Config]),
// and the compact encoding in which a vector is stored on its memory item
// ([Encode], [DecodeFor]).
//
// It imports no provider. The providers are packages of their own: bedrock
// (Amazon Titan Text Embeddings V2 over InvokeModel), openai (any
// OpenAI-compatible /v1/embeddings endpoint such as Ollama) and hashing (a
// deterministic embedder for tests and local trials); package embedders
// picks one from configuration (AGENTMEM_EMBEDDINGS). The store and the
// functions that do not embed link none of them; without a provider,
// search is lexical only.
package embeddings

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Embedder computes one vector per text. Implementations are safe for
// concurrent use.
type Embedder interface {
	// Embed returns one vector per text, in order, all of Dimensions()
	// length. Every failure of a remote provider is an *Error.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Name identifies the provider and model ("bedrock:amazon.titan-
	// embed-text-v2:0"). It is stored with each vector, so that vectors
	// of another model are never compared with this one's.
	Name() string
	// Dimensions is the length of the vectors; 0 while unknown (an
	// OpenAI-compatible model without configured dimensions, before its
	// first answer).
	Dimensions() int
}

// Kind classifies a failure, as package llm classifies the failures of
// the same kind of HTTP providers.
type Kind string

// Failure kinds.
const (
	KindTimeout    Kind = "timeout"     // the deadline passed
	KindThrottled  Kind = "throttled"   // 429 or the provider's throttling error
	KindAuth       Kind = "auth"        // credentials refused (401, 403)
	KindBadRequest Kind = "bad_request" // the provider refused the request (400, 404, 413, 422)
	KindServer     Kind = "server"      // 5xx, or a transport failure
	KindMalformed  Kind = "malformed"   // an answer that does not follow the provider's format
)

// Error is every failure of a remote embedder.
type Error struct {
	Kind     Kind
	Provider string
	// Status is the HTTP status when there was one.
	Status int
	// RetryAfter is the provider's hint for throttled requests (0: none).
	RetryAfter time.Duration
	Message    string
	Err        error
}

// Error implements error: "embeddings <provider>: <kind> (HTTP n): message: cause".
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "embeddings %s: %s", e.Provider, e.Kind)
	if e.Status != 0 {
		fmt.Fprintf(&b, " (HTTP %d)", e.Status)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if e.Err != nil {
		b.WriteString(": " + e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the Kind of err's *Error, or "" when it has none.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}
