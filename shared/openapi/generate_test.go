package openapi_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

//go:generate env UPDATE_GENERATED=1 go test -run TestGeneratedDocsAreCurrent .

// docsFile is the file TestGeneratedDocsAreCurrent keeps equal to the doc
// comments of shared/agentmem.
const docsFile = "docs_gen.go"

// oneLine joins a comment's lines.
func oneLine(cg *ast.CommentGroup) string {
	if cg == nil {
		return ""
	}
	return strings.Join(strings.Fields(cg.Text()), " ")
}

// renderDocs renders docs_gen.go from the doc comments of the domain
// package: its types, their fields, and the error codes.
func renderDocs(dir string) ([]byte, error) {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	types, fields, codes := map[string]string{}, map[string]string{}, map[string]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					doc := oneLine(s.Doc)
					if doc == "" && len(gd.Specs) == 1 {
						doc = oneLine(gd.Doc)
					}
					if doc != "" {
						types[s.Name.Name] = doc
					}
					st, ok := s.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, fl := range st.Fields.List {
						doc := oneLine(fl.Doc)
						if doc == "" {
							doc = oneLine(fl.Comment)
						}
						for _, n := range fl.Names {
							if doc != "" && n.IsExported() {
								fields[s.Name.Name+"."+n.Name] = doc
							}
						}
					}
				case *ast.ValueSpec:
					// The error codes: E* string constants with a line comment.
					for i, n := range s.Names {
						if !strings.HasPrefix(n.Name, "E") || i >= len(s.Values) || s.Comment == nil {
							continue
						}
						lit, ok := s.Values[i].(*ast.BasicLit)
						if !ok || lit.Kind != token.STRING {
							continue
						}
						v, _ := strconv.Unquote(lit.Value)
						codes[v] = oneLine(s.Comment)
					}
				}
			}
		}
	}
	var b bytes.Buffer
	b.WriteString(`// Code generated from the doc comments of shared/agentmem by
// TestGeneratedDocsAreCurrent; DO NOT EDIT.
// Regenerate with: UPDATE_GENERATED=1 go test ./shared/openapi (or make docs)

package openapi
`)
	for _, m := range []struct {
		name, doc string
		m         map[string]string
	}{
		{"typeDocs", "the doc comments of shared/agentmem's types, by type name", types},
		{"fieldDocs", "the doc comments of their fields, by \"<Type>.<Field>\"", fields},
		{"codeDocs", "the comments of the domain error codes, by code", codes},
	} {
		fmt.Fprintf(&b, "\n// %s are %s.\nvar %s = map[string]string{\n", m.name, m.doc, m.name)
		keys := make([]string, 0, len(m.m))
		for k := range m.m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "\t%q: %q,\n", k, m.m[k])
		}
		b.WriteString("}\n")
	}
	return format.Source(b.Bytes())
}

// TestGeneratedDocsAreCurrent keeps docs_gen.go equal to the doc comments
// of shared/agentmem, which the OpenAPI document shows as descriptions.
// Run with UPDATE_GENERATED=1 to rewrite it.
func TestGeneratedDocsAreCurrent(t *testing.T) {
	t.Parallel()
	want, err := renderDocs("../agentmem")
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	got, err := os.ReadFile(docsFile)
	if err == nil && bytes.Equal(got, want) {
		return
	}
	if os.Getenv("UPDATE_GENERATED") != "" {
		if err := os.WriteFile(docsFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is out of date with the doc comments of shared/agentmem; run make docs (or UPDATE_GENERATED=1 go test ./shared/openapi)", docsFile)
}
