package openaicompat_test

import (
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/openaicompat"
)

func TestEndpointURL(t *testing.T) {
	t.Parallel()
	tests := []struct{ endpoint, resource, want string }{
		{"", "embeddings", "https://api.openai.com/v1/embeddings"},
		{"http://localhost:11434", "embeddings", "http://localhost:11434/v1/embeddings"},
		{"http://localhost:11434/", "chat/completions", "http://localhost:11434/v1/chat/completions"},
		{"http://localhost:8000/v1/", "chat/completions", "http://localhost:8000/v1/chat/completions"},
		{"https://llm.internal/v1/embeddings", "embeddings", "https://llm.internal/v1/embeddings"},
		{"https://x.example/openai/v1", "embeddings", "https://x.example/openai/v1/embeddings"},
	}
	for _, tt := range tests {
		got, err := openaicompat.EndpointURL(tt.endpoint, tt.resource)
		if err != nil || got != tt.want {
			t.Errorf("EndpointURL(%q, %q) = %q, %v; want %q", tt.endpoint, tt.resource, got, err, tt.want)
		}
	}
	for _, bad := range []string{"localhost:11434", "ftp://x", "http://", "::"} {
		if _, err := openaicompat.EndpointURL(bad, "embeddings"); err == nil {
			t.Errorf("EndpointURL(%q): no error", bad)
		}
	}
}

func TestErrorMessage(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 500)
	tests := []struct{ body, want string }{
		{`{"error":{"message":"Rate limit reached","type":"requests"}}`, "Rate limit reached"},
		{`{"error":"model \"m\" not found, try pulling it first"}`, `model "m" not found, try pulling it first`},
		{"  upstream connect error\n", "upstream connect error"},
		{`{"error":{"type":"server_error"}}`, `{"error":{"type":"server_error"}}`},
		{"", ""},
		{long, strings.Repeat("x", 200) + "…"},
		{`{"error":{"message":"` + strings.Repeat("é", 1000) + `"}}`, strings.Repeat("é", 512) + "…"},
		{`{"error":"` + strings.Repeat("x", 2000) + `"}`, strings.Repeat("x", 1024) + "…"},
		{strings.Repeat("é", 150), strings.Repeat("é", 100) + "…"},
	}
	for _, tt := range tests {
		if got := openaicompat.ErrorMessage([]byte(tt.body)); got != tt.want {
			t.Errorf("ErrorMessage(%.40q) = %q, want %q", tt.body, got, tt.want)
		}
	}
}
