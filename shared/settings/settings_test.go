package settings_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/routes"
	"github.com/agentmem/agentmem/shared/settings"
)

// root is the repository's root, seen from this package.
const root = "../.."

// TestDocsAreUpToDate: the README's settings section and DEPLOY.md's list
// are what the table renders.
func TestDocsAreUpToDate(t *testing.T) {
	t.Parallel()
	for _, d := range settings.Docs {
		raw, err := os.ReadFile(filepath.Join(root, d.Path))
		if err != nil {
			t.Fatal(err)
		}
		if _, changed, err := d.Update(string(raw)); err != nil || changed {
			t.Errorf("%s: the block generated from shared/settings is out of date (%v); run make docs", d.Path, err)
		}
	}
}

func TestDocUpdate(t *testing.T) {
	t.Parallel()
	d := settings.Doc{Path: "x.md", Begin: "<!-- b -->\n", End: "<!-- e -->", Render: func() string { return "new\n" }}
	tests := []struct {
		in, want string
		changed  bool
		err      bool
	}{
		{"head\n<!-- b -->\nold\n<!-- e -->\ntail", "head\n<!-- b -->\nnew\n<!-- e -->\ntail", true, false},
		{"<!-- b -->\nnew\n<!-- e -->", "<!-- b -->\nnew\n<!-- e -->", false, false},
		{"no markers", "no markers", false, true},
		{"<!-- e -->\n<!-- b -->\nold", "<!-- e -->\n<!-- b -->\nold", false, true},
	}
	for _, tt := range tests {
		got, changed, err := d.Update(tt.in)
		if got != tt.want || changed != tt.changed || (err != nil) != tt.err {
			t.Errorf("Update(%q): got %q, %v, %v; want %q, %v, error %v", tt.in, got, changed, err, tt.want, tt.changed, tt.err)
		}
	}
}

// envName is what an environment variable's name looks like.
var envName = regexp.MustCompile(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$`)

// TestTableIsWellFormed: one entry per name, each documented, grouped and
// read by someone; the functions are the route table's.
func TestTableIsWellFormed(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, s := range settings.All() {
		switch {
		case seen[s.Name]:
			t.Errorf("%s is defined twice", s.Name)
		case s.Name != "PORT" && !envName.MatchString(s.Name):
			t.Errorf("%q does not look like an environment variable", s.Name)
		case !strings.HasSuffix(s.Doc, ".") || len(s.Doc) < 20:
			t.Errorf("%s: doc %q: want a sentence", s.Name, s.Doc)
		case len(s.Readers) == 0:
			t.Errorf("%s: read by nobody", s.Name)
		case !slices.Contains(settings.Groups, s.Group):
			t.Errorf("%s: group %q is not in settings.Groups", s.Name, s.Group)
		}
		seen[s.Name] = true
		if settings.Lookup(s.Name) != s {
			t.Errorf("Lookup(%q) does not find it", s.Name)
		}
	}
	if got, want := len(seen), 45; got < want {
		t.Errorf("the table has %d settings; it had %d when it was written", got, want)
	}
	var fns []settings.Binary
	for _, fn := range routes.Functions {
		fns = append(fns, settings.Binary(fn))
	}
	if !slices.Equal(fns, settings.Functions) {
		t.Errorf("settings.Functions %v, routes.Functions %v", settings.Functions, fns)
	}
	for _, s := range []*settings.Setting{settings.LLMAPIKey, settings.OpenAIAPIKey, settings.AnthropicAPIKey, settings.EmbeddingsAPIKey} {
		if !s.Secret {
			t.Errorf("%s is a credential: want Secret", s.Name)
		}
	}
}

func TestForAndAccessors(t *testing.T) {
	t.Parallel()
	env := map[string]string{"AGENTMEM_LLM": "openai", "MEMORIES_TABLE": ""}
	getenv := func(k string) string { return env[k] }
	if got := settings.LLM.Get(getenv); got != "openai" {
		t.Errorf("Get: got %q", got)
	}
	if got := settings.LLM.Get(nil); got != "" {
		t.Errorf("Get with no environment: got %q", got)
	}
	if got := settings.MemoriesTable.Or(getenv, "agent-memories"); got != "agent-memories" {
		t.Errorf("Or on an empty value: got %q", got)
	}
	tests := []struct {
		b        settings.Binary
		has, not []*settings.Setting
	}{
		{settings.Personalities, []*settings.Setting{settings.MemoriesTable, settings.LogLevel}, []*settings.Setting{settings.LLM, settings.Embeddings, settings.APIURL}},
		{settings.Memories, []*settings.Setting{settings.Embeddings, settings.SearchCache, settings.EmbeddingsAPIKey}, []*settings.Setting{settings.LLM, settings.DreamQueueURL}},
		{settings.Dream, []*settings.Setting{settings.LLM, settings.Embeddings, settings.DreamQueueURL, settings.DreamLease}, []*settings.Setting{settings.SearchCache, settings.Timeout}},
		{settings.CLI, []*settings.Setting{settings.APIURL, settings.Agent, settings.LLMModel, settings.ClaudeCommand}, []*settings.Setting{settings.MemoriesTable, settings.Embeddings}},
	}
	for _, tt := range tests {
		got := settings.For(tt.b)
		for _, s := range tt.has {
			if !slices.Contains(got, s) {
				t.Errorf("For(%s) lacks %s", tt.b, s)
			}
		}
		for _, s := range tt.not {
			if slices.Contains(got, s) {
				t.Errorf("For(%s) has %s", tt.b, s)
			}
		}
	}
}

// TestNoSettingNamedOutsideTheTable scans the module's Go sources (tests
// and testdata aside): a setting is read through this package, so no other
// file may name one by a string literal, call a getenv with a literal
// name, or name an AGENTMEM_ or DREAM_ variable the table lacks. This is
// the test that fails when a new setting is read but not documented.
func TestNoSettingNamedOutsideTheTable(t *testing.T) {
	t.Parallel()
	// A literal that is a name, "NAME=" or "NAME=%...".
	literal := regexp.MustCompile(`^([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?:=(?:%.*)?)?$`)
	fset := token.NewFileSet()
	var problems []string
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata", "cdk.out", ".build", ".data", "bin":
				return filepath.SkipDir
			}
			if filepath.ToSlash(path) == root+"/shared/settings" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		problems = append(problems, namedSettings(fset, f, literal)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("scanned %d Go files; the walk missed the module", files)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// namedSettings returns the places in f that name a setting without this
// package: a getenv-like call (Getenv, getenv, LookupEnv) whose argument is
// neither settings.X.Name nor a parameter of the function around it (a
// wrapper passing names through), and a string literal naming a setting.
func namedSettings(fset *token.FileSet, f *ast.File, literal *regexp.Regexp) []string {
	var out []string
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.CallExpr:
			var name string
			switch fn := n.Fun.(type) {
			case *ast.Ident:
				name = fn.Name
			case *ast.SelectorExpr:
				name = fn.Sel.Name
			}
			if (name == "Getenv" || name == "getenv" || name == "LookupEnv") && len(n.Args) == 1 && !settingName(n.Args[0]) && !parameter(stack, n.Args[0]) {
				out = append(out, fset.Position(n.Args[0].Pos()).String()+": "+name+"("+argString(n.Args[0])+"): read settings through shared/settings")
			}
		case *ast.BasicLit:
			if n.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(n.Value)
			if err != nil {
				return true
			}
			m := literal.FindStringSubmatch(s)
			if m == nil {
				return true
			}
			switch setting := settings.Lookup(m[1]); {
			case setting != nil:
				out = append(out, fset.Position(n.Pos()).String()+": "+n.Value+": use the Name of shared/settings' entry for "+setting.Name)
			case strings.HasPrefix(m[1], "AGENTMEM_") || strings.HasPrefix(m[1], "DREAM_"):
				out = append(out, fset.Position(n.Pos()).String()+": "+n.Value+": "+m[1]+" is not in shared/settings; add it there")
			}
		}
		return true
	})
	return out
}

// settingName reports whether e is settings.X.Name.
func settingName(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Name" {
		return false
	}
	inner, ok := sel.X.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := inner.X.(*ast.Ident)
	return ok && pkg.Name == "settings"
}

// parameter reports whether e is a parameter of the innermost function
// on stack.
func parameter(stack []ast.Node, e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	for i := len(stack) - 1; i >= 0; i-- {
		var ft *ast.FuncType
		switch fn := stack[i].(type) {
		case *ast.FuncLit:
			ft = fn.Type
		case *ast.FuncDecl:
			ft = fn.Type
		default:
			continue
		}
		for _, field := range ft.Params.List {
			for _, name := range field.Names {
				if name.Name == id.Name {
					return true
				}
			}
		}
		return false
	}
	return false
}

// argString renders an argument for a message.
func argString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Value
	case *ast.Ident:
		return e.Name
	}
	return "..."
}

// TestScanFindsLiterals: the scan catches the forms it is for, and lets
// documentation and name-forwarding wrappers through.
func TestScanFindsLiterals(t *testing.T) {
	t.Parallel()
	src := `package p
const hidden = "SOME_FLAG"
func f(getenv func(string) string) {
	_ = getenv("AGENTMEM_LLM")
	_ = os.Getenv("PORT")
	_ = fmt.Errorf("AGENTMEM_LLM_TIMEOUT=%q: bad", v)
	_ = "DYNAMODB_ENDPOINT=" + x
	_ = "AGENTMEM_NEW_THING"
	_, _ = os.LookupEnv(hidden)
	_ = getenv("AGENT" + "MEM_X")
	_ = "AGENTMEM_PROJECT=checkout-service agentmem list"
	_ = "set AGENTMEM_LLM to bedrock"
	_ = getenv(settings.LLM.Name)
	wrap := func(k string) string { return os.Getenv(k) }
	_ = wrap
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := namedSettings(fset, f, regexp.MustCompile(`^([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?:=(?:%.*)?)?$`))
	// getenv("AGENTMEM_LLM") is reported twice: the call and the literal.
	if len(got) != 8 {
		t.Errorf("got %d findings, want 8:\n%s", len(got), strings.Join(got, "\n"))
	}
	for _, want := range []string{`getenv("AGENTMEM_LLM")`, `Getenv("PORT")`, "entry for AGENTMEM_LLM_TIMEOUT", "entry for DYNAMODB_ENDPOINT",
		"AGENTMEM_NEW_THING is not in shared/settings", "LookupEnv(hidden)", "getenv(...)"} {
		if !slices.ContainsFunc(got, func(p string) bool { return strings.Contains(p, want) }) {
			t.Errorf("no finding with %q in:\n%s", want, strings.Join(got, "\n"))
		}
	}
}
