// Package anthropic is the llm.Client of the Anthropic Messages API,
// through the official Go SDK.
package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentmem/agentmem/shared/backoff"
	"github.com/agentmem/agentmem/shared/llm"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// DefaultEndpoint is the Anthropic API base used when none is
// configured.
const DefaultEndpoint = "https://api.anthropic.com"

// Client is a client of the Anthropic Messages API (POST
// {endpoint}/v1/messages with x-api-key and anthropic-version headers),
// through the official Go SDK.
type Client struct {
	cfg    llm.Config
	client sdk.Client
}

var _ llm.Client = (*Client)(nil)

// New returns an Anthropic Messages client. cfg.Model and
// cfg.APIKey are required; cfg.Endpoint overrides the API base. The SDK
// reads nothing from the environment (ConfigFromEnv already did) and does
// not retry: callers decide (see llm.Retry).
func New(cfg llm.Config) (*Client, error) {
	if cfg.Model == "" {
		return nil, fmt.Errorf("anthropic: AGENTMEM_LLM_MODEL is required (e.g. claude-haiku-4-5)")
	}
	if cfg.APIKey == "" {
		return nil, fmt.Errorf("anthropic: an API key is required (AGENTMEM_LLM_API_KEY or ANTHROPIC_API_KEY)")
	}
	endpoint := cfg.Endpoint
	if endpoint == "" {
		endpoint = DefaultEndpoint
	}
	if !strings.HasPrefix(endpoint, "http://") && !strings.HasPrefix(endpoint, "https://") {
		return nil, fmt.Errorf("anthropic: endpoint %q is not an http(s) URL", endpoint)
	}
	client := sdk.NewClient(
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(endpoint),
		option.WithAPIKey(cfg.APIKey),
		option.WithHTTPClient(&http.Client{}),
		option.WithMaxRetries(0),
	)
	return &Client{cfg: cfg, client: client}, nil
}

// Name implements llm.Client.
func (c *Client) Name() string { return llm.ProviderAnthropic + ":" + c.cfg.Model }

// Complete implements llm.Client.
func (c *Client) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.TimeoutOrDefault())
	defer cancel()
	params := sdk.MessageNewParams{
		Model:       sdk.Model(c.cfg.Model),
		MaxTokens:   int64(c.cfg.MaxTokensFor(req)),
		Temperature: sdk.Float(req.Temperature),
		Messages:    []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock(req.Prompt))},
	}
	if req.System != "" {
		params.System = []sdk.TextBlockParam{{Text: req.System}}
	}
	msg, err := c.client.Messages.New(ctx, params)
	if err != nil {
		return llm.Response{}, anthropicError(ctx, err)
	}
	var text strings.Builder
	for _, block := range msg.Content {
		if block.Type == "text" {
			text.WriteString(block.Text)
		}
	}
	stop := string(msg.StopReason)
	if strings.TrimSpace(text.String()) == "" {
		return llm.Response{}, &llm.Error{Kind: llm.KindEmpty, Provider: llm.ProviderAnthropic, Status: http.StatusOK, Message: "answer has no text (stop_reason " + stop + ")"}
	}
	return llm.Response{
		Text: text.String(), Model: string(msg.Model), StopReason: stop,
		InputTokens: int(msg.Usage.InputTokens), OutputTokens: int(msg.Usage.OutputTokens),
	}, nil
}

// anthropicError classifies a Messages failure by the error type of the
// answer ({"type":"error","error":{"type":"rate_limit_error",...}}),
// falling back on the HTTP status (529 is overloaded_error).
func anthropicError(ctx context.Context, err error) *llm.Error {
	if e := llm.ContextError(llm.ProviderAnthropic, ctx, err); e != nil {
		return e
	}
	var api *sdk.Error
	if !errors.As(err, &api) {
		// Transport failures, and 200 answers the SDK could not decode.
		if isDecodeError(err) {
			return &llm.Error{Kind: llm.KindMalformed, Provider: llm.ProviderAnthropic, Status: http.StatusOK, Message: "answer is not Messages JSON", Err: err}
		}
		return &llm.Error{Kind: llm.KindServer, Provider: llm.ProviderAnthropic, Message: "request failed", Err: err}
	}
	e := &llm.Error{Provider: llm.ProviderAnthropic, Status: api.StatusCode, Message: anthropicErrorMessage(api)}
	if api.Response != nil {
		e.RetryAfter = backoff.RetryAfter(api.Response.Header)
	}
	switch api.Type() {
	case "rate_limit_error":
		e.Kind = llm.KindThrottled
	case "overloaded_error", "api_error":
		e.Kind = llm.KindServer
	case "authentication_error", "permission_error", "billing_error":
		e.Kind = llm.KindAuth
	case "timeout_error":
		e.Kind = llm.KindTimeout
	case "invalid_request_error", "not_found_error", "request_too_large":
		e.Kind = llm.KindBadRequest
	default:
		e.Kind = llm.StatusKind(api.StatusCode)
	}
	return e
}

// anthropicErrorMessage is the error.message of the answer, else the start
// of its body.
func anthropicErrorMessage(api *sdk.Error) string {
	raw := api.RawJSON()
	var body struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(raw), &body); err == nil && body.Error.Message != "" {
		return llm.ClipMessage(body.Error.Type + ": " + body.Error.Message)
	}
	return llm.Snippet([]byte(raw))
}

// isDecodeError reports whether err is the SDK failing to read a 2xx
// answer (not JSON, or JSON of the wrong shape).
func isDecodeError(err error) bool {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	msg := err.Error()
	return errors.As(err, &syntax) || errors.As(err, &typ) ||
		strings.Contains(msg, "error parsing response json") || strings.Contains(msg, "that is not 'application/json'")
}
