// Package embeddings turns memory texts into vectors for semantic search:
// one small interface, [Embedder], with real providers behind it (Amazon
// Bedrock Titan Text Embeddings V2 over InvokeModel, any OpenAI-compatible
// /v1/embeddings endpoint such as Ollama), a deterministic one for tests and
// local trials (package hashing), and the compact encoding in which a vector
// is stored on its memory item ([Encode], [Decode]).
//
// Which provider is used is configuration (AGENTMEM_EMBEDDINGS, see
// [ConfigFromEnv]); without one, search is lexical only.
package embeddings

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Embedder computes one vector per text. Implementations are safe for
// concurrent use. hashing.Embedder, *Bedrock and *OpenAI implement it.
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

// Kind classifies a failure.
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
	Status  int
	Message string
	Err     error
}

// Error implements error.
func (e *Error) Error() string {
	s := fmt.Sprintf("embeddings %s: %s", e.Provider, e.Kind)
	if e.Status != 0 {
		s += fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
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

// kindForStatus classifies a non-2xx HTTP status.
func kindForStatus(status int) Kind {
	switch {
	case status == http.StatusTooManyRequests:
		return KindThrottled
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return KindAuth
	case status == http.StatusRequestTimeout || status == http.StatusGatewayTimeout:
		return KindTimeout
	case status >= 500:
		return KindServer
	}
	return KindBadRequest
}

// transportError classifies a failure with no HTTP answer: a timeout when
// ctx is done, a server failure otherwise.
func transportError(provider string, ctx context.Context, err error) *Error {
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return &Error{Kind: KindTimeout, Provider: provider, Message: "no answer before the deadline", Err: err}
	}
	return &Error{Kind: KindServer, Provider: provider, Message: "request failed", Err: err}
}

// checkTexts refuses blank texts, which no provider embeds.
func checkTexts(provider string, texts []string) error {
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			return &Error{Kind: KindBadRequest, Provider: provider, Message: fmt.Sprintf("text %d of %d is blank", i+1, len(texts))}
		}
	}
	return nil
}
