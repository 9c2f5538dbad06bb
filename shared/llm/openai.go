package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// DefaultOpenAIEndpoint is the base URL used when none is configured.
const DefaultOpenAIEndpoint = "https://api.openai.com/v1"

// maxAnswerBytes bounds how much of a provider's answer is read.
const maxAnswerBytes = 4 << 20

// OpenAI is a client of any OpenAI-compatible chat completions endpoint:
// OpenAI itself, Ollama, vLLM, LM Studio. It speaks POST
// {endpoint}/chat/completions with a system and a user message.
type OpenAI struct {
	cfg  Config
	url  string
	HTTP *http.Client
}

var _ Client = (*OpenAI)(nil)

// NewOpenAI returns an OpenAI-compatible client. cfg.Model is required;
// cfg.Endpoint is the API base (".../v1"); a bare host such as
// http://localhost:11434 gets "/v1" appended, and a full
// ".../chat/completions" URL is used as given.
func NewOpenAI(cfg Config) (*OpenAI, error) {
	if cfg.Model == "" {
		return nil, fmt.Errorf("openai: AGENTMEM_LLM_MODEL is required (e.g. gpt-4o-mini, or llama3.1:8b for Ollama)")
	}
	u, err := ChatCompletionsURL(cfg.Endpoint)
	if err != nil {
		return nil, err
	}
	return &OpenAI{cfg: cfg, url: u, HTTP: &http.Client{}}, nil
}

// ChatCompletionsURL returns the chat completions URL for an endpoint as
// NewOpenAI interprets it.
func ChatCompletionsURL(endpoint string) (string, error) {
	if endpoint == "" {
		endpoint = DefaultOpenAIEndpoint
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("openai: endpoint %q is not an http(s) URL", endpoint)
	}
	p := strings.TrimRight(u.Path, "/")
	switch {
	case strings.HasSuffix(p, "/chat/completions"):
	case p == "":
		p = "/v1/chat/completions"
	default:
		p += "/chat/completions"
	}
	u.Path = p
	return u.String(), nil
}

// Name implements Client.
func (c *OpenAI) Name() string { return ProviderOpenAI + ":" + c.cfg.Model }

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

// Complete implements Client.
func (c *OpenAI) Complete(ctx context.Context, req Request) (Response, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.timeout())
	defer cancel()
	body := openAIRequest{Model: c.cfg.Model, MaxTokens: c.cfg.maxTokens(req), Temperature: req.Temperature}
	if req.System != "" {
		body.Messages = append(body.Messages, openAIMessage{Role: "system", Content: req.System})
	}
	body.Messages = append(body.Messages, openAIMessage{Role: "user", Content: req.Prompt})
	raw, err := json.Marshal(body)
	if err != nil {
		return Response{}, &Error{Kind: KindBadRequest, Provider: ProviderOpenAI, Err: err}
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(raw))
	if err != nil {
		return Response{}, &Error{Kind: KindBadRequest, Provider: ProviderOpenAI, Err: err}
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.HTTP.Do(hreq)
	if err != nil {
		if e := contextError(ProviderOpenAI, ctx, err); e != nil {
			return Response{}, e
		}
		return Response{}, &Error{Kind: KindServer, Provider: ProviderOpenAI, Message: "request failed", Err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	if err != nil {
		if e := contextError(ProviderOpenAI, ctx, err); e != nil {
			return Response{}, e
		}
		return Response{}, &Error{Kind: KindServer, Provider: ProviderOpenAI, Status: resp.StatusCode, Message: "reading the answer failed", Err: err}
	}
	if resp.StatusCode != http.StatusOK {
		return Response{}, httpError(ProviderOpenAI, resp, openAIErrorMessage(data))
	}
	var out openAIResponse
	if err := json.Unmarshal(data, &out); err != nil {
		return Response{}, &Error{Kind: KindMalformed, Provider: ProviderOpenAI, Status: resp.StatusCode, Message: "answer is not chat completions JSON", Err: err}
	}
	if len(out.Choices) == 0 {
		return Response{}, &Error{Kind: KindMalformed, Provider: ProviderOpenAI, Status: resp.StatusCode, Message: "answer has no choices"}
	}
	ch := out.Choices[0]
	if ch.Message.Content == nil || strings.TrimSpace(*ch.Message.Content) == "" {
		return Response{}, &Error{Kind: KindEmpty, Provider: ProviderOpenAI, Status: resp.StatusCode, Message: "answer has no text (finish_reason " + ch.FinishReason + ")"}
	}
	return Response{
		Text: *ch.Message.Content, Model: out.Model, StopReason: ch.FinishReason,
		InputTokens: out.Usage.PromptTokens, OutputTokens: out.Usage.CompletionTokens,
	}, nil
}

func openAIErrorMessage(data []byte) string {
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
	return snippet(data)
}

// httpError classifies a non-2xx answer.
func httpError(provider string, resp *http.Response, msg string) *Error {
	e := &Error{Kind: statusKind(resp.StatusCode), Provider: provider, Status: resp.StatusCode, Message: msg}
	if e.Kind == KindThrottled {
		e.RetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"))
	}
	return e
}

// snippet returns the start of a body for an error message.
func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
