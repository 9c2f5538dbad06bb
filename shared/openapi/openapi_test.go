package openapi_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/agentmem/agentmem/shared/openapi"
)

// docPath is the document as committed, for people and viewers.
const docPath = "../../docs/openapi.json"

// TestDocumentFileIsCurrent keeps docs/openapi.json equal to the generated
// document: adding a route, a field or a doc comment without regenerating
// it fails here. Run make docs (or UPDATE_OPENAPI=1 go test
// ./shared/openapi) to rewrite it.
func TestDocumentFileIsCurrent(t *testing.T) {
	t.Parallel()
	want := openapi.Document()
	got, err := os.ReadFile(docPath)
	if err == nil && bytes.Equal(got, want) {
		return
	}
	if os.Getenv("UPDATE_OPENAPI") != "" {
		if err := os.WriteFile(docPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/openapi.json is out of date with the route table and the domain types; run make docs (or UPDATE_OPENAPI=1 go test ./shared/openapi)")
}

// TestDocumentIsDeterministic: building the document again gives the same
// bytes (no map order leaks into it), so that docs/openapi.json only
// changes when the API does.
func TestDocumentIsDeterministic(t *testing.T) {
	t.Parallel()
	first := openapi.Build()
	for i := range 20 {
		if !bytes.Equal(openapi.Build(), first) {
			t.Fatalf("build %d differs from the first", i+2)
		}
	}
}
