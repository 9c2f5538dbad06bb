package openapi_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agentmem/agentmem/shared/openapi"
)

// redocly is the Redocly CLI that make tools installs from
// tools/package-lock.json: an OpenAPI validator independent of this code.
const redocly = "../../tools/node_modules/.bin/redocly"

// TestRedoclyLint has Redocly CLI check the generated document against
// the OpenAPI 3.1 specification and its recommended rules, warnings
// included (tools/redocly.yaml).
func TestRedoclyLint(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(redocly); err != nil {
		t.Fatalf("Redocly CLI is needed to validate the OpenAPI document: run make tools (it installs tools/package-lock.json): %v", err)
	}
	doc := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(doc, openapi.Document(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(redocly, "lint", "--config", "../../tools/redocly.yaml", "--format", "stylish", doc)
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true", "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("redocly lint refuses the OpenAPI document: %v\n%s", err, out)
	}
}
