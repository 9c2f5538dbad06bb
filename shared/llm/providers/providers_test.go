package providers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/llm/anthropic"
	"github.com/agentmem/agentmem/shared/llm/bedrock"
	"github.com/agentmem/agentmem/shared/llm/openai"
	"github.com/agentmem/agentmem/shared/llm/providers"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
)

const bedrockModel = "us.anthropic.claude-haiku-4-5-20251001-v1:0"

// awsCfg stands for the process's AWS configuration (awsconfig.Load).
var awsCfg = aws.Config{Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", "")}

func TestNewFromConfig(t *testing.T) {
	t.Parallel()
	env := map[string]string{"AGENTMEM_LLM": "openai", "AGENTMEM_LLM_MODEL": "gpt-4o-mini", "OPENAI_API_KEY": "k", "AGENTMEM_LLM_TIMEOUT": "5s"}
	cfg, err := llm.ConfigFromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.APIKey != "k" || cfg.Timeout != 5*time.Second {
		t.Errorf("got %+v", cfg)
	}
	c, err := providers.New(cfg, awsCfg)
	if err != nil || c.Name() != "openai:gpt-4o-mini" {
		t.Fatalf("New: %v, %v", c, err)
	}
	none, err := providers.New(llm.Config{}, awsCfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := none.Complete(context.Background(), llm.Request{}); llm.KindOf(err) != llm.KindNotConfigured {
		t.Errorf("none: got %v", err)
	}
	for _, bad := range []map[string]string{
		{"AGENTMEM_LLM": "gpt"},
		{"AGENTMEM_LLM": "openai"}, // no model
	} {
		cfg, err := llm.ConfigFromEnv(func(k string) string { return bad[k] })
		if err == nil {
			_, err = providers.New(cfg, awsCfg)
		}
		if err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	if _, err := llm.ConfigFromEnv(func(k string) string { return map[string]string{"AGENTMEM_LLM_TIMEOUT": "soon"}[k] }); err == nil {
		t.Error("bad timeout accepted")
	}
}

func TestNewWiresEveryProvider(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env  map[string]string
		name string
	}{
		{map[string]string{"AGENTMEM_LLM": "openai", "AGENTMEM_LLM_MODEL": "llama3.1:8b", "AGENTMEM_LLM_ENDPOINT": "http://localhost:11434"}, "openai:llama3.1:8b"},
		{map[string]string{"AGENTMEM_LLM": "bedrock", "AGENTMEM_LLM_MODEL": bedrockModel, "AWS_REGION": "eu-west-1"}, "bedrock:" + bedrockModel},
		{map[string]string{"AGENTMEM_LLM": "anthropic", "AGENTMEM_LLM_MODEL": "claude-haiku-4-5", "ANTHROPIC_API_KEY": "k"}, "anthropic:claude-haiku-4-5"},
		{map[string]string{"AGENTMEM_LLM": "claude", "AGENTMEM_CLAUDE_COMMAND": "../claude/testdata/fake-claude"}, "claude"},
		{map[string]string{}, "none"},
	}
	for _, tt := range tests {
		cfg, err := llm.ConfigFromEnv(func(k string) string { return tt.env[k] })
		if err != nil {
			t.Fatal(err)
		}
		c, err := providers.New(cfg, awsCfg)
		if err != nil {
			t.Errorf("%v: %v", tt.env, err)
			continue
		}
		if c.Name() != tt.name {
			t.Errorf("%v: got %q, want %q", tt.env, c.Name(), tt.name)
		}
		if _, retried := c.(*llm.Retry); retried != (tt.name != "none") {
			t.Errorf("%s: wrapped in Retry: %v", tt.name, retried)
		}
	}
	for _, bad := range []map[string]string{
		{"AGENTMEM_LLM": "bedrock"},
		{"AGENTMEM_LLM": "anthropic", "AGENTMEM_LLM_MODEL": "claude-haiku-4-5"},
		{"AGENTMEM_LLM": "claude", "AGENTMEM_CLAUDE_COMMAND": "no-such-claude"},
	} {
		cfg, err := llm.ConfigFromEnv(func(k string) string { return bad[k] })
		if err != nil {
			t.Fatal(err)
		}
		if c, err := providers.New(cfg, awsCfg); err == nil || c != nil {
			t.Errorf("%v: got %v, %v; want a nil client and an error", bad, c, err)
		}
	}
}

// TestEveryHTTPProviderTimesOut points each HTTP provider at a server that
// never answers: each gives up at its timeout with a KindTimeout error.
func TestEveryHTTPProviderTimesOut(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	const timeout = 50 * time.Millisecond
	openAI, err := openai.New(llm.Config{Model: "m", Endpoint: srv.URL, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	br, err := bedrock.New(aws.Config{}, llm.Config{Model: "m", Region: "us-east-1", Endpoint: srv.URL, Timeout: timeout},
		func(o *bedrockruntime.Options) {
			o.Credentials = credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", "")
		})
	if err != nil {
		t.Fatal(err)
	}
	an, err := anthropic.New(llm.Config{Model: "m", APIKey: "k", Endpoint: srv.URL, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []llm.Client{openAI, br, an} {
		_, err := c.Complete(context.Background(), llm.Request{Prompt: "x"})
		if got := llm.KindOf(err); got != llm.KindTimeout {
			t.Errorf("%s: got %v (kind %q), want a timeout", c.Name(), err, got)
		}
	}
}
