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
	"fmt"
	"strings"

	"github.com/agentmem/agentmem/shared/llm"
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

// Kind classifies a failure: the kinds of package llm, which classifies
// the same HTTP providers' failures the same way.
type Kind = llm.Kind

// Failure kinds.
const (
	KindTimeout    = llm.KindTimeout    // the deadline passed
	KindThrottled  = llm.KindThrottled  // 429 or the provider's throttling error
	KindAuth       = llm.KindAuth       // credentials refused (401, 403)
	KindBadRequest = llm.KindBadRequest // the provider refused the request (400, 404, 413, 422)
	KindServer     = llm.KindServer     // 5xx, or a transport failure
	KindMalformed  = llm.KindMalformed  // an answer that does not follow the provider's format
)

// Error is every failure of a remote embedder: an *llm.Error whose
// Service is "embeddings" (set by the constructors below).
type Error = llm.Error

// service names the embedders in error messages.
const service = "embeddings"

// KindOf returns the Kind of err's *Error, or "" when it has none.
func KindOf(err error) Kind { return llm.KindOf(err) }

// kindForStatus classifies a non-2xx HTTP status.
func kindForStatus(status int) Kind { return llm.StatusKind(status) }

// transportError classifies a failure with no HTTP answer: a timeout when
// ctx is done, a server failure otherwise.
func transportError(provider string, ctx context.Context, err error) *Error {
	if e := llm.ContextError(provider, ctx, err); e != nil {
		e.Service = service
		return e
	}
	return &Error{Kind: KindServer, Service: service, Provider: provider, Message: "request failed", Err: err}
}

// checkTexts refuses blank texts, which no provider embeds.
func checkTexts(provider string, texts []string) error {
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			return &Error{Kind: KindBadRequest, Service: service, Provider: provider, Message: fmt.Sprintf("text %d of %d is blank", i+1, len(texts))}
		}
	}
	return nil
}
