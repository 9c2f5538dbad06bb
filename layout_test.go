// Package layout_test checks the shape of the module: imports flow one
// way, domain (shared/agentmem) <- storage and adapters (shared/...) <-
// functions (functions/...) <- commands (cmd/...), with test helpers
// beside what they test, and each Lambda binary links only what it uses.
// A wrong-way import fails here, in `make test`, rather than in review.
package layout_test

import (
	"bytes"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/agentmem/agentmem"

// pkg is one package of the module as go list reports it, with its
// module-relative path ("shared/httpapi") and imports (external imports
// keep their full path).
type pkg struct {
	path        string
	imports     []string
	testImports []string // TestImports and XTestImports
}

func goList(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

func rel(importPath string) string {
	if importPath == module {
		return "."
	}
	return strings.TrimPrefix(importPath, module+"/")
}

func packages(t *testing.T) []pkg {
	t.Helper()
	out := goList(t, "-f", "{{.ImportPath}}|{{join .Imports \" \"}}|{{join .TestImports \" \"}} {{join .XTestImports \" \"}}", "./...")
	var pkgs []pkg
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 3 {
			t.Fatalf("go list line %q", line)
		}
		p := pkg{path: rel(f[0])}
		for _, imp := range strings.Fields(f[1]) {
			p.imports = append(p.imports, rel(imp))
		}
		for _, imp := range strings.Fields(f[2]) {
			if rel(imp) != p.path {
				p.testImports = append(p.testImports, rel(imp))
			}
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages; run from the module root", len(pkgs))
	}
	return pkgs
}

// under reports whether path is dir or inside it.
func under(path, dir string) bool { return path == dir || strings.HasPrefix(path, dir+"/") }

// internal reports whether path (as rel returns it) is a package of this
// module: one of its top-level folders, not the standard library or
// another module.
func internal(path string) bool {
	switch strings.Split(path, "/")[0] {
	case ".", "shared", "functions", "cmd", "infra", "tools", "examples", "e2e":
		return true
	}
	return false
}

// testHelper reports whether path is a test helper package (dynamotest,
// llmtest, apitest, ...): imported by tests, never by what ships.
func testHelper(path string) bool {
	base := path[strings.LastIndex(path, "/")+1:]
	return strings.HasSuffix(base, "test") && base != "test"
}

// processPolicy lists the leaf packages that hold one process-wide
// definition (the settings table, the AWS configuration, the retry
// backoff): any layer may use them, and they import only each other, the
// route table and the domain.
var processPolicy = map[string]bool{"shared/settings": true, "shared/awsconfig": true, "shared/backoff": true}

// rule is one import rule: packages matching from must not import what
// bad reports (with why).
type rule struct {
	name string
	from func(path string) bool
	bad  func(from, imp string) bool
}

// prodRules apply to the imports of what ships (not _test.go files).
var prodRules = []rule{
	{"the domain imports no other package of the module",
		func(p string) bool { return p == "shared/agentmem" },
		func(_, imp string) bool { return internal(imp) }},
	{"the API client imports only the domain (its wire types are the domain's) and the process-wide policies (settings, AWS configuration, backoff) among the module's packages",
		func(p string) bool { return p == "shared/apiclient" },
		func(_, imp string) bool { return internal(imp) && !processPolicy[imp] && imp != "shared/agentmem" }},
	{"the process-wide policies import only each other, the route table and the domain",
		func(p string) bool { return processPolicy[p] },
		func(_, imp string) bool {
			return internal(imp) && !processPolicy[imp] && imp != "shared/routes" && imp != "shared/agentmem"
		}},
	{"shared packages import no functions, commands, infrastructure, tools or end-to-end tests",
		func(p string) bool { return under(p, "shared") },
		func(_, imp string) bool {
			return under(imp, "functions") || under(imp, "cmd") || under(imp, "infra") || under(imp, "tools") || under(imp, "examples") || under(imp, "e2e")
		}},
	{"functions import no commands, infrastructure or tools",
		func(p string) bool { return under(p, "functions") },
		func(_, imp string) bool { return under(imp, "cmd") || under(imp, "infra") || under(imp, "tools") }},
	{"functions do not import the dev-only local API (their test server may)",
		func(p string) bool { return under(p, "functions") && !testHelper(p) },
		func(_, imp string) bool { return imp == "shared/localapi" }},
	{"infrastructure imports no functions or commands",
		func(p string) bool { return under(p, "infra") },
		func(_, imp string) bool { return under(imp, "functions") || under(imp, "cmd") }},
	{"only test helpers and tools import test helpers",
		func(p string) bool { return !testHelper(p) && !under(p, "tools") },
		func(_, imp string) bool { return internal(imp) && testHelper(imp) }},
}

// testRules apply to the imports of _test.go files.
var testRules = []rule{
	{"tests of shared packages use no commands, infrastructure or tools, and of the functions only the API test server",
		func(p string) bool { return under(p, "shared") },
		func(_, imp string) bool {
			return under(imp, "cmd") || under(imp, "infra") || under(imp, "tools") ||
				(under(imp, "functions") && imp != "functions/apitest")
		}},
	{"tests of functions use no commands or infrastructure",
		func(p string) bool { return under(p, "functions") },
		func(_, imp string) bool { return under(imp, "cmd") || under(imp, "infra") }},
}

// TestImportsFlowOneWay checks every package's imports against the rules.
func TestImportsFlowOneWay(t *testing.T) {
	t.Parallel()
	for _, p := range packages(t) {
		check := func(rules []rule, imports []string, kind string) {
			for _, r := range rules {
				if !r.from(p.path) {
					continue
				}
				for _, imp := range imports {
					if r.bad(p.path, imp) {
						t.Errorf("%s (%s) imports %s: %s", p.path, kind, imp, r.name)
					}
				}
			}
		}
		check(prodRules, p.imports, "code")
		check(testRules, p.testImports, "tests")
	}
}

// TestRulesCatchWrongWayImports feeds the rules the wrong-way imports this
// module once had, so that a rule that stops matching is noticed.
func TestRulesCatchWrongWayImports(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rules    []rule
		from, to string
	}{
		{prodRules, "shared/apitest", "functions"},
		{prodRules, "functions", "shared/localapi"},
		{prodRules, "shared/agentmem", "shared/routes"},
		{prodRules, "shared/apiclient", "shared/extract"},
		{prodRules, "functions/memories/memoryapi", "functions/apitest"},
		{prodRules, "shared/dynamostore", "shared/dynamotest"},
		{prodRules, "shared/mcpserver", "cmd/agentmem/cli"},
		{prodRules, "infra/stack", "functions/memories/memoryapi"},
		{testRules, "shared/apiclient", "functions/memories/memoryapi"},
		{testRules, "shared/mcpserver", "cmd/agentmem/cli"},
	}
	for _, tt := range tests {
		caught := false
		for _, r := range tt.rules {
			caught = caught || (r.from(tt.from) && r.bad(tt.from, tt.to))
		}
		if !caught {
			t.Errorf("no rule refuses %s importing %s", tt.from, tt.to)
		}
	}
}

// TestBinariesLinkOnlyWhatTheyUse checks what each binary links, all
// packages included (go list -deps): the functions that need no model
// link no LLM provider, no function links the dev-only local API or a
// test helper, and the agent-side CLI links no server code.
func TestBinariesLinkOnlyWhatTheyUse(t *testing.T) {
	t.Parallel()
	providers := []string{
		"shared/llm/providers", "shared/llm/anthropic", "shared/llm/bedrock", "shared/llm/claude",
		"github.com/anthropics/anthropic-sdk-go", "github.com/aws/aws-sdk-go-v2/service/bedrockruntime",
	}
	noLocalOrTests := []string{"shared/localapi", "cmd", "functions/apitest", "shared/dynamotest", "shared/llm/llmtest", "shared/embeddings/embeddingstest", "shared/sqsqueue/sqstest"}
	tests := []struct {
		binary string
		banned []string
	}{
		// Personalities needs neither a model nor embeddings: no LLM
		// provider and no OpenAI client.
		{"functions/personalities", append(append([]string{"shared/llm/openai"}, providers...), noLocalOrTests...)},
		// Memories embeds (an OpenAI-compatible endpoint may be one) but
		// never asks a model.
		{"functions/memories", append(append([]string{}, providers...), noLocalOrTests...)},
		{"functions/extraction", noLocalOrTests},
		{"functions/dream", noLocalOrTests},
		{"cmd/agentmem", []string{"functions", "shared/dynamostore", "shared/lambdamain", "shared/httpapi", "shared/localapi", "github.com/aws/aws-sdk-go-v2/service/dynamodb"}},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.binary, "/", "_"), func(t *testing.T) {
			t.Parallel()
			var bad []string
			for _, dep := range strings.Fields(goList(t, "-deps", "./"+tt.binary)) {
				dep = rel(dep)
				for _, b := range tt.banned {
					if under(dep, b) {
						bad = append(bad, dep)
						break
					}
				}
			}
			sort.Strings(bad)
			if len(bad) > 0 {
				t.Errorf("%s links %s", tt.binary, strings.Join(bad, ", "))
			}
		})
	}
}
