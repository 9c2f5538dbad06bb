package console_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// namesFile is the module TestGeneratedNamesAreCurrent keeps equal to the
// domain's name rule, so that the pages check names as the API does
// without a copy of the rule to keep in step.
const namesFile = "web/js/api/names.js"

//go:generate env UPDATE_GENERATED=1 go test -run TestGeneratedNamesAreCurrent .

// renderNames renders web/js/api/names.js from agentmem's name rule.
func renderNames() []byte {
	var b bytes.Buffer
	b.WriteString(`// Code generated from the name rule of shared/agentmem (NamePattern) by
// TestGeneratedNamesAreCurrent; DO NOT EDIT.
// Regenerate with: UPDATE_GENERATED=1 go test ./cmd/agentmem/console

// Patterns of the names the pages take (1 to N characters of letters,
// digits, '.', '_' and '-', but not the dot segments "." and ".."), for
// input elements' pattern attributes and RegExp.

// NAME_RULE says the rule to a person.
export const NAME_RULE = 'letters, digits, ".", "_" and "-", but not "." or ".." alone';
`)
	for _, n := range []struct {
		name string
		max  int
	}{
		{"AGENT_NAME_PATTERN", agentmem.MaxAgentNameLen},
		{"SESSION_ID_PATTERN", agentmem.MaxSessionIDLen},
		{"KEY_PATTERN", agentmem.MaxKeyLen},
	} {
		// A JSON string is a JavaScript string literal.
		fmt.Fprintf(&b, "export const %s = %s;\n", n.name, jsString(agentmem.NamePattern(n.max)))
	}
	return b.Bytes()
}

// jsString quotes s as a single-quoted JavaScript string (backslashes
// doubled; the patterns hold no quote or line break).
func jsString(s string) string {
	return "'" + strings.ReplaceAll(s, `\`, `\\`) + "'"
}

// TestGeneratedNamesAreCurrent keeps web/js/api/names.js equal to the
// domain's name rule. Run with UPDATE_GENERATED=1 to rewrite the file.
func TestGeneratedNamesAreCurrent(t *testing.T) {
	t.Parallel()
	want := renderNames()
	got, err := os.ReadFile(namesFile)
	if err == nil && bytes.Equal(got, want) {
		return
	}
	if os.Getenv("UPDATE_GENERATED") != "" {
		if err := os.WriteFile(namesFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is out of date with agentmem.NamePattern; run UPDATE_GENERATED=1 go test ./cmd/agentmem/console", namesFile)
}
