// Package openaicompat holds the conventions every OpenAI-compatible HTTP
// API shares (OpenAI, Ollama, vLLM, LM Studio): how an endpoint setting
// becomes a resource's URL, and how an error body reads. The chat client
// (shared/llm/openai) and the embeddings client (shared/embeddings/openai)
// both follow them, and neither links the other.
package openaicompat

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/agentmem/agentmem/shared/llm"
)

// DefaultEndpoint is the API base used when none is configured.
const DefaultEndpoint = "https://api.openai.com/v1"

// EndpointURL returns the URL of resource ("chat/completions",
// "embeddings") under an OpenAI-compatible endpoint: "" is DefaultEndpoint;
// a bare host such as http://localhost:11434 (Ollama) gets "/v1"; an API
// base ".../v1" gets "/<resource>"; a URL that already ends in the resource
// is used as given.
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

// ErrorMessage returns the message of an OpenAI-compatible error body:
// {"error":{"message":...}} (OpenAI, vLLM) or {"error":"..."} (older
// Ollama), bounded as every provider's (llm.ClipMessage), else the start
// of the body (llm.Snippet).
func ErrorMessage(data []byte) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(data, &e) == nil && len(e.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(e.Error, &obj) == nil && obj.Message != "" {
			return llm.ClipMessage(obj.Message)
		}
		var s string
		if json.Unmarshal(e.Error, &s) == nil && s != "" {
			return llm.ClipMessage(s)
		}
	}
	return llm.Snippet(data)
}
