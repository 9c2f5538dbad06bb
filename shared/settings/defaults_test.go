package settings_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/embeddings/bedrock"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/search"
	"github.com/agentmem/agentmem/shared/settings"
)

// TestDefaultsAreTheCodes: the documented default of a setting is the
// constant the code falls back on. (The functions' own settings are
// checked in their packages.)
func TestDefaultsAreTheCodes(t *testing.T) {
	t.Parallel()
	dur := func(d time.Duration) func(string) bool {
		return func(s string) bool { got, err := time.ParseDuration(s); return err == nil && got == d }
	}
	num := func(x float64) func(string) bool {
		return func(s string) bool { got, err := strconv.ParseFloat(s, 64); return err == nil && got == x }
	}
	is := func(want string) func(string) bool { return func(s string) bool { return s == want } }
	tests := []struct {
		setting *settings.Setting
		ok      func(string) bool
	}{
		{settings.MemoriesTable, is(dynamostore.DefaultMemoriesTable)},
		{settings.PersonalitiesTable, is(dynamostore.DefaultPersonalitiesTable)},
		{settings.JournalTable, is(dynamostore.DefaultJournalTable)},
		{settings.MemoryLimit, num(agentmem.DefaultMemoryLimit)},
		{settings.PatternMinConfidence, num(search.DefaultMinConfidence)},
		{settings.LLM, is(llm.ProviderNone)},
		{settings.LLMTimeout, dur(llm.DefaultTimeout)},
		{settings.LLMMaxTokens, num(llm.DefaultMaxTokens)},
		{settings.Embeddings, is(embeddings.ProviderNone)},
		{settings.EmbeddingsTimeout, dur(embeddings.DefaultTimeout)},
		{settings.EmbeddingsModel, func(s string) bool { return strings.Contains(s, bedrock.DefaultModel) }},
		{settings.EmbeddingsDimensions, func(s string) bool { return strings.HasPrefix(s, strconv.Itoa(bedrock.DefaultDimensions)+" ") }},
		{settings.DreamLookbackDays, num(dream.DefaultLookbackDays)},
		{settings.DreamCompressAfterDays, num(dream.DefaultCompressAfterDays)},
		{settings.DreamMinSupport, num(dream.DefaultMinSupport)},
		{settings.DreamLease, dur(dream.DefaultLease)},
		{settings.DreamMaxTokens, num(dream.DefaultMaxTokens)},
		{settings.DreamVerify, func(s string) bool {
			cfg, err := dream.ConfigFromEnv(func(string) string { return "" })
			on, perr := strconv.ParseBool(s)
			return err == nil && perr == nil && on == !cfg.NoVerify
		}},
		{settings.DreamRestate, func(s string) bool {
			cfg, err := dream.ConfigFromEnv(func(string) string { return "" })
			on, perr := strconv.ParseBool(s)
			return err == nil && perr == nil && on == !cfg.NoRestate
		}},
		{settings.Auth, is(apiclient.AuthSigV4)},
	}
	for _, tt := range tests {
		if !tt.ok(tt.setting.Default) {
			t.Errorf("%s: documented default %q is not the code's", tt.setting, tt.setting.Default)
		}
	}
}
