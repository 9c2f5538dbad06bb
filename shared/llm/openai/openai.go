package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/agentmem/agentmem/shared/llm"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// DefaultEndpoint is the base URL used when none is configured.
const DefaultEndpoint = "https://api.openai.com/v1"

// Client is a client of any OpenAI-compatible chat completions endpoint:
// OpenAI itself, Ollama, vLLM, LM Studio. It speaks POST
// {endpoint}/chat/completions with a system and a user message.
type Client struct {
	cfg  llm.Config
	url  string
	HTTP *http.Client
}

var _ llm.Client = (*Client)(nil)

// New returns an OpenAI-compatible client. cfg.Model is required;
// cfg.Endpoint is the API base (".../v1"); a bare host such as
// http://localhost:11434 gets "/v1" appended, and a full
// ".../chat/completions" URL is used as given.
func New(cfg llm.Config) (*Client, error) {
	if cfg.Model == "" {
		return nil, fmt.Errorf("openai: AGENTMEM_LLM_MODEL is required (e.g. gpt-4o-mini, or llama3.1:8b for Ollama)")
	}
	u, err := ChatCompletionsURL(cfg.Endpoint)
	if err != nil {
		return nil, err
	}
	return &Client{cfg: cfg, url: u, HTTP: &http.Client{}}, nil
}

// ChatCompletionsURL returns the chat completions URL for an endpoint as
// New interprets it.
func ChatCompletionsURL(endpoint string) (string, error) {
	u, err := EndpointURL(endpoint, "chat/completions")
	if err != nil {
		return "", fmt.Errorf("openai: %w", err)
	}
	return u, nil
}

// EndpointURL returns the URL of resource ("chat/completions",
// "embeddings") under an OpenAI-compatible endpoint, by the rules every
// OpenAI-compatible client of agentmem follows: "" is DefaultEndpoint; a
// bare host such as http://localhost:11434 (Ollama) gets "/v1"; an API base
// ".../v1" gets "/<resource>"; a URL that already ends in the resource is
// used as given.
func EndpointURL(endpoint, resource string) (string, error) {
	if endpoint == "" {
		endpoint = DefaultEndpoint
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("endpoint %q is not an http(s) URL", endpoint)
	}
	p := strings.TrimRight(u.Path, "/")
	switch {
	case strings.HasSuffix(p, "/"+resource):
	case p == "":
		p = "/v1/" + resource
	default:
		p += "/" + resource
	}
	u.Path = p
	return u.String(), nil
}

// Name implements llm.Client.
func (c *Client) Name() string { return llm.ProviderOpenAI + ":" + c.cfg.Model }

type openAIMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type openAIRequest struct {
	Model       string          `json:"model"`
	Messages    []openAIMessage `json:"messages"`
	MaxTokens   int             `json:"max_tokens"`
	Temperature float64         `json:"temperature"`
	Stream      bool            `json:"stream"`
}

type openAIResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

// openAIError is the error body of OpenAI and of most compatible servers;
// some (older Ollama) send {"error":"text"} instead.
type openAIError struct {
	Error json.RawMessage `json:"error"`
}

// Complete implements llm.Client.
func (c *Client) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.TimeoutOrDefault())
	defer cancel()
	body := openAIRequest{Model: c.cfg.Model, MaxTokens: c.cfg.MaxTokensFor(req), Temperature: req.Temperature}
	if req.System != "" {
		body.Messages = append(body.Messages, openAIMessage{Role: "system", Content: req.System})
	}
	body.Messages = append(body.Messages, openAIMessage{Role: "user", Content: req.Prompt})
	raw, err := json.Marshal(body)
	if err != nil {
		return llm.Response{}, &llm.Error{Kind: llm.KindBadRequest, Provider: llm.ProviderOpenAI, Err: err}
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(raw))
	if err != nil {
		return llm.Response{}, &llm.Error{Kind: llm.KindBadRequest, Provider: llm.ProviderOpenAI, Err: err}
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.HTTP.Do(hreq)
	if err != nil {
		if e := llm.ContextError(llm.ProviderOpenAI, ctx, err); e != nil {
			return llm.Response{}, e
		}
		return llm.Response{}, &llm.Error{Kind: llm.KindServer, Provider: llm.ProviderOpenAI, Message: "request failed", Err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, llm.MaxAnswerBytes))
	if err != nil {
		if e := llm.ContextError(llm.ProviderOpenAI, ctx, err); e != nil {
			return llm.Response{}, e
		}
		return llm.Response{}, &llm.Error{Kind: llm.KindServer, Provider: llm.ProviderOpenAI, Status: resp.StatusCode, Message: "reading the answer failed", Err: err}
	}
	if resp.StatusCode != http.StatusOK {
		return llm.Response{}, llm.HTTPError(llm.ProviderOpenAI, resp, ErrorMessage(data))
	}
	var out openAIResponse
	if err := json.Unmarshal(data, &out); err != nil {
		return llm.Response{}, &llm.Error{Kind: llm.KindMalformed, Provider: llm.ProviderOpenAI, Status: resp.StatusCode, Message: "answer is not chat completions JSON", Err: err}
	}
	if len(out.Choices) == 0 {
		return llm.Response{}, &llm.Error{Kind: llm.KindMalformed, Provider: llm.ProviderOpenAI, Status: resp.StatusCode, Message: "answer has no choices"}
	}
	ch := out.Choices[0]
	if ch.Message.Content == nil || strings.TrimSpace(*ch.Message.Content) == "" {
		return llm.Response{}, &llm.Error{Kind: llm.KindEmpty, Provider: llm.ProviderOpenAI, Status: resp.StatusCode, Message: "answer has no text (finish_reason " + ch.FinishReason + ")"}
	}
	return llm.Response{
		Text: *ch.Message.Content, Model: out.Model, StopReason: ch.FinishReason,
		InputTokens: out.Usage.PromptTokens, OutputTokens: out.Usage.CompletionTokens,
	}, nil
}

// ErrorMessage returns the message of an OpenAI-compatible error body:
// {"error":{"message":...}} (OpenAI, vLLM) or {"error":"..."} (older
// Ollama), else the start of the body.
func ErrorMessage(data []byte) string {
	var e openAIError
	if json.Unmarshal(data, &e) == nil && len(e.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(e.Error, &obj) == nil && obj.Message != "" {
			return obj.Message
		}
		var s string
		if json.Unmarshal(e.Error, &s) == nil && s != "" {
			return s
		}
	}
	return llm.Snippet(data)
}
