package memoryapi_test

import (
	"strconv"
	"testing"

	"github.com/agentmem/agentmem/functions/memories/memoryapi"
	"github.com/agentmem/agentmem/shared/search"
	"github.com/agentmem/agentmem/shared/settings"
)

// TestSettingsDefaults: the documented defaults of the memories function's
// own settings are the ones New falls back on.
func TestSettingsDefaults(t *testing.T) {
	t.Parallel()
	if got, want := settings.SearchCache.Default, strconv.Itoa(memoryapi.DefaultSearchCacheMemories); got != want {
		t.Errorf("%s: documented default %q, code's %q", settings.SearchCache, got, want)
	}
	if got, err := strconv.ParseFloat(settings.PatternMinConfidence.Default, 64); err != nil || got != search.DefaultMinConfidence {
		t.Errorf("%s: documented default %q, code's %v", settings.PatternMinConfidence, settings.PatternMinConfidence.Default, search.DefaultMinConfidence)
	}
}
