package layout_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestUserDocsSpeakNoInternalVocabulary: what users read (the README, the
// deployment and security guides, the OpenAPI document with the domain
// types' descriptions) never speaks of the requirement documents or the
// tracker ("seed 004", "issue 10"), words a user cannot look up. The CLI's
// help is held to the same rule in cmd/agentmem/cli.
func TestUserDocsSpeakNoInternalVocabulary(t *testing.T) {
	t.Parallel()
	internal := regexp.MustCompile(`(?i)\bseeds? ?-?0\d\d\b|\bissues? #?\d|\bBRIEF\b`)
	for _, file := range []string{"README.md", "docs/DEPLOY.md", "docs/SECURITY.md", "docs/openapi.json"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := internal.FindString(line); m != "" {
				t.Errorf("%s:%d says %q: say what it means instead", file, i+1, m)
			}
		}
	}
}
