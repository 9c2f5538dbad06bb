package stack_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/infra/stack"
)

// TestConfigFromContext: defaults, typed values as cdk.json gives them,
// and a clear error naming the flag for each bad value.
func TestConfigFromContext(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ctx     map[string]any
		wantErr string // substring; "" for success
		check   func(t *testing.T, c stack.Config)
	}{
		{"defaults", nil, "", func(t *testing.T, c stack.Config) {
			if c.StackName != "AgentMem" || c.AssetDir != ".build" || c.LLM != "bedrock" || c.LLMModel != stack.DefaultLLMModel ||
				c.Embeddings != "bedrock" || c.EmbeddingsModel != stack.DefaultEmbeddingsModel || c.LogRetentionDays != 30 ||
				c.DreamMaxConcurrency != 5 || c.Throwaway || len(c.CORSOrigins) != 0 || len(c.Functions) != 4 {
				t.Errorf("defaults: %+v", c)
			}
			if got := c.TableName("agent-memories"); got != "agent-memories" {
				t.Errorf("table name %q", got)
			}
		}},
		{"stage and typed values", map[string]any{"stage": "dev", "throwaway": true, "logRetentionDays": float64(7), "corsOrigins": " https://a.example.com, https://b.example.com ,"}, "", func(t *testing.T, c stack.Config) {
			if c.StackName != "AgentMem-dev" || c.TableName("agent-journal") != "agent-journal-dev" || !c.Throwaway || c.LogRetentionDays != 7 {
				t.Errorf("got %+v", c)
			}
			if strings.Join(c.CORSOrigins, "|") != "https://a.example.com|https://b.example.com" {
				t.Errorf("origins %q", c.CORSOrigins)
			}
		}},
		{"llm none has no model", map[string]any{"llm": "none", "embeddings": "none"}, "", func(t *testing.T, c stack.Config) {
			if c.LLMModel != "" || c.EmbeddingsModel != "" {
				t.Errorf("models %q %q, want none", c.LLMModel, c.EmbeddingsModel)
			}
		}},
		{"bad stage", map[string]any{"stage": "Prod_1"}, "stage", nil},
		{"bad bool", map[string]any{"throwaway": "yes please"}, "throwaway", nil},
		{"bad retention", map[string]any{"logRetentionDays": "10"}, "logRetentionDays: 10: want one of 1, 3, 5", nil},
		{"bad concurrency", map[string]any{"dreamMaxConcurrency": "1"}, "dreamMaxConcurrency", nil},
		{"claude in lambda", map[string]any{"llm": "claude"}, "does not run in Lambda", nil},
		{"unknown llm", map[string]any{"llm": "gpt"}, `llm: "gpt"`, nil},
		{"openai needs a model", map[string]any{"llm": "openai"}, "llmModel: required", nil},
		{"bad embeddings", map[string]any{"embeddings": "openai"}, "embeddings", nil},
		{"bad role", map[string]any{"agentTaskRoleArn": "agent-task"}, "agentTaskRoleArn", nil},
		{"email and topic", map[string]any{"alarmEmail": "a@example.com", "alarmTopicArn": "arn:aws:sns:eu-west-1:1:t"}, "not both", nil},
		{"bad throttle", map[string]any{"throttleRate": "-1"}, "throttleRate", nil},
		{"unsupported type", map[string]any{"stage": []any{"a"}}, "unsupported value", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := stack.ConfigFromContext(func(k string) any { return tc.ctx[k] })
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("got error %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("got error %v, want one containing %q", err, tc.wantErr)
			}
			if tc.check != nil {
				tc.check(t, c)
			}
		})
	}
}

// TestNewNeedsBinaries: without a bootstrap per function the stack is not
// built, and the error says how to get them.
func TestNewNeedsBinaries(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "memories"), 0o755)
	os.WriteFile(filepath.Join(dir, "memories", "bootstrap"), []byte("x"), 0o755)
	cfg, err := stack.ConfigFromContext(func(k string) any { return map[string]any{stack.CtxAssetDir: dir}[k] })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stack.New(nil, cfg); err == nil || !strings.Contains(err.Error(), "personalities") || !strings.Contains(err.Error(), "make build") {
		t.Errorf("got %v, want an error naming the missing personalities binary and make build", err)
	}
}

// FuzzConfigFromContext: any context values give a configuration or an
// error, never a panic, and an accepted configuration validates.
func FuzzConfigFromContext(f *testing.F) {
	f.Add("dev", "true", "30", "5", "bedrock", "", "arn:aws:iam::1:role/x")
	f.Add("", "no", "x", "1000", "claude", "https://e", "")
	f.Fuzz(func(t *testing.T, stage, throwaway, retention, concurrency, llm, endpoint, role string) {
		ctx := map[string]any{"stage": stage, "throwaway": throwaway, "logRetentionDays": retention,
			"dreamMaxConcurrency": concurrency, "llm": llm, "llmEndpoint": endpoint, "agentTaskRoleArn": role}
		c, err := stack.ConfigFromContext(func(k string) any { return ctx[k] })
		if err == nil {
			if verr := c.Validate(); verr != nil {
				t.Fatalf("accepted a configuration that does not validate: %v", verr)
			}
		}
	})
}
