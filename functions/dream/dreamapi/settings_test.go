package dreamapi_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/agentmem/agentmem/functions/dream/dreamapi"
	"github.com/agentmem/agentmem/shared/settings"
)

// TestSettingsDefaults: the documented defaults of the dream function's
// own settings are the ones it falls back on.
func TestSettingsDefaults(t *testing.T) {
	t.Parallel()
	if got, err := time.ParseDuration(settings.DreamAPIModelBudget.Default); err != nil || got != dreamapi.DefaultAPIModelBudget {
		t.Errorf("%s: documented default %q, code's %v", settings.DreamAPIModelBudget, settings.DreamAPIModelBudget.Default, dreamapi.DefaultAPIModelBudget)
	}
	if got, want := settings.DreamWorkerConcurrency.Default, strconv.Itoa(dreamapi.DefaultWorkerConcurrency); got != want {
		t.Errorf("%s: documented default %q, code's %q", settings.DreamWorkerConcurrency, got, want)
	}
}
