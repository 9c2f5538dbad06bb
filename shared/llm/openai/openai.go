// Package openai is the llm.Client of any OpenAI-compatible chat
// completions endpoint (OpenAI, Ollama, vLLM, LM Studio).
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/openaicompat"
)

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
	u, err := openaicompat.EndpointURL(endpoint, "chat/completions")
	if err != nil {
		return "", fmt.Errorf("openai: %w", err)
	}
	return u, nil
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
		return llm.Response{}, llm.HTTPError(llm.ProviderOpenAI, resp, openaicompat.ErrorMessage(data))
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
