package functions_test

import (
	"os/exec"
	"strings"
	"testing"
)

// deps lists the packages pkg links (go list -deps).
func deps(t *testing.T, pkg string) map[string]bool {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	m := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		m[p] = true
	}
	return m
}

// TestBinariesLinkOnlyWhatTheyUse: imports flow one way, and each Lambda
// binary links only the providers it may use. The store and the
// personalities function link no LLM and no embeddings provider (nor the
// OpenAI-compatible client conventions); the memories function links the
// embeddings providers but no LLM provider.
func TestBinariesLinkOnlyWhatTheyUse(t *testing.T) {
	t.Parallel()
	const mod = "github.com/agentmem/agentmem/"
	llmProviders := []string{mod + "shared/llm/providers", mod + "shared/llm/openai", mod + "shared/llm/bedrock", mod + "shared/llm/anthropic", mod + "shared/llm/claude",
		"github.com/aws/aws-sdk-go-v2/service/bedrockruntime", "github.com/anthropics/anthropic-sdk-go"}
	embedProviders := []string{mod + "shared/embeddings/embedders", mod + "shared/embeddings/openai", mod + "shared/embeddings/bedrock", mod + "shared/openaicompat"}
	tests := []struct {
		pkg       string
		forbidden []string
		required  []string
	}{
		{"../shared/dynamostore", concat([]string{mod + "shared/llm"}, llmProviders, embedProviders), []string{mod + "shared/embeddings"}},
		{"./personalities", concat(llmProviders, embedProviders), nil},
		{"./memories", llmProviders, embedProviders},
		{"./extraction", nil, []string{mod + "shared/llm/providers", mod + "shared/embeddings/embedders"}},
		{"./dream", nil, []string{mod + "shared/llm/providers", mod + "shared/embeddings/embedders", "github.com/aws/aws-sdk-go-v2/service/sqs"}},
	}
	for _, tt := range tests {
		got := deps(t, tt.pkg)
		for _, p := range tt.forbidden {
			if got[p] {
				t.Errorf("%s links %s", tt.pkg, p)
			}
		}
		for _, p := range tt.required {
			if !got[p] {
				t.Errorf("%s does not link %s (is the test still looking at the right package?)", tt.pkg, p)
			}
		}
	}
}

// concat returns a new list of the lists' elements.
func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}
