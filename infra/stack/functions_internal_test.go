package stack

import (
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/agentmem/agentmem/shared/settings"
)

// TestFunctionEnvComesFromTheSettingsTable: a function's environment
// holds only settings it reads, set where the table says it reads them;
// an entry for a setting it does not read, or for a secret, is refused.
func TestFunctionEnvComesFromTheSettingsTable(t *testing.T) {
	s := &Stack{
		Config: Config{LLM: "bedrock", LLMModel: DefaultLLMModel, Embeddings: EmbeddingsBedrock, EmbeddingsModel: DefaultEmbeddingsModel},
		Schema: dynamostore.Config{MemoriesTable: "m", PersonalitiesTable: "p", JournalTable: "j"}.Schema(),
	}
	for _, fn := range routes.Functions {
		env, err := s.functionEnv(fn, functionSpecs[fn])
		if err != nil {
			t.Fatalf("%s: %v", fn, err)
		}
		for name, v := range *env {
			st := settings.Lookup(name)
			switch {
			case st == nil || !st.ReadBy(settings.Binary(fn)) || st.Reserved:
				t.Errorf("%s: %s is declared, but it is not a setting the function reads (or Lambda reserves it)", fn, name)
			case st.Secret && *v != "":
				t.Errorf("%s: the secret %s has a value in the template", fn, name)
			}
		}
		// Every setting it reads is declared (SAM's --env-vars sets only
		// declared variables), but those Lambda reserves.
		for _, st := range settings.For(settings.Binary(fn)) {
			if _, ok := (*env)[st.Name]; ok == st.Reserved {
				t.Errorf("%s: %s declared %v, want %v", fn, st, ok, !st.Reserved)
			}
		}
		if _, ok := (*env)[settings.LLM.Name]; ok != settings.LLM.ReadBy(settings.Binary(fn)) {
			t.Errorf("%s: AGENTMEM_LLM set %v, read %v", fn, ok, settings.LLM.ReadBy(settings.Binary(fn)))
		}
	}
	tests := []struct {
		name string
		fn   routes.Function
		env  map[*settings.Setting]string
		want string
	}{
		{"not read", routes.Personalities, map[*settings.Setting]string{settings.DreamLease: "330s"}, "personalities does not read AGENTMEM_DREAM_LEASE"},
		{"secret", routes.Extraction, map[*settings.Setting]string{settings.LLMAPIKey: "sk-123"}, "AGENTMEM_LLM_API_KEY is a secret"},
		{"reserved", routes.Memories, map[*settings.Setting]string{settings.AWSRegion: "eu-west-1"}, "AWS_REGION is set by Lambda"},
	}
	for _, tt := range tests {
		spec := functionSpecs[tt.fn]
		spec.env = tt.env
		if _, err := s.functionEnv(tt.fn, spec); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error with %q", tt.name, err, tt.want)
		}
	}
}
