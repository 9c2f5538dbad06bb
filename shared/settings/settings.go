// Package settings is the one list of agentmem's environment settings: for
// each, its name, its default, what it does, which programs read it and
// whether it is a secret. Every reader goes through it
// (settings.LLMModel.Get(getenv) rather than getenv("AGENTMEM_LLM_MODEL")),
// the README's settings section is rendered from it ([UpdateDocs], make
// docs), and the CDK stack sets each function's environment from the
// functions' reader lists ([For]). A test fails when a Go file outside this
// package names a setting by a string literal, so a new setting cannot be
// read without being listed here.
package settings

import (
	"slices"

	"github.com/agentmem/agentmem/shared/routes"
)

// Binary names a program that reads settings.
type Binary string

// The programs. The Lambda functions are named as in shared/routes.
const (
	Memories      = Binary(routes.Memories)
	Personalities = Binary(routes.Personalities)
	Extraction    = Binary(routes.Extraction)
	Dream         = Binary(routes.Dream)
	// DevServer is cmd/devserver (make dev): every function in one process.
	DevServer Binary = "devserver"
	// CLI is cmd/agentmem, the agent-side CLI and MCP server.
	CLI Binary = "agentmem"
	// Tests is make test: tools/ddblocal and the test helpers.
	Tests Binary = "tests"
)

// Functions are the Lambda functions, in the order of routes.Functions.
var Functions = []Binary{Memories, Personalities, Extraction, Dream}

// everyFunction is the reader list of the settings every function reads.
var everyFunction = []Binary{Memories, Personalities, Extraction, Dream, DevServer}

// Group orders the settings in the documentation.
type Group string

// The groups, in documentation order.
const (
	GroupStorage    Group = "Storage, AWS and logs"
	GroupSecurity   Group = "Security"
	GroupMemories   Group = "Memories and search"
	GroupLLM        Group = "LLM"
	GroupEmbeddings Group = "Embeddings"
	GroupDream      Group = "Deep Dream"
	GroupCLI        Group = "The agentmem CLI"
	GroupLocal      Group = "Local development and tests"
)

// Groups lists the groups in documentation order.
var Groups = []Group{GroupStorage, GroupSecurity, GroupMemories, GroupLLM, GroupEmbeddings, GroupDream, GroupCLI, GroupLocal}

// Setting is one environment variable agentmem reads.
type Setting struct {
	// Name is the environment variable.
	Name string
	// Default is what applies when the variable is unset, as people read
	// it ("3s", "none", "AWS_REGION"); "" means no default.
	Default string
	// Doc says what the setting does, in one or two sentences.
	Doc string
	// Readers are the programs that read it.
	Readers []Binary
	// Secret marks a credential: never put into a template, a log or a
	// command line.
	Secret bool
	// Reserved marks a name Lambda sets itself and refuses in a
	// function's configuration (AWS_REGION, ...): the stack never
	// declares it.
	Reserved bool
	// Group places it in the documentation.
	Group Group
}

// Get returns the setting's value in the environment getenv reads
// (os.Getenv in a process; a map lookup in tests), "" when unset.
func (s *Setting) Get(getenv func(string) string) string {
	if getenv == nil {
		return ""
	}
	return getenv(s.Name)
}

// Or returns the setting's value through getenv, or def when it is unset
// or empty.
func (s *Setting) Or(getenv func(string) string, def string) string {
	if v := s.Get(getenv); v != "" {
		return v
	}
	return def
}

// ReadBy reports whether b reads the setting.
func (s *Setting) ReadBy(b Binary) bool { return slices.Contains(s.Readers, b) }

// String returns the variable's name.
func (s *Setting) String() string { return s.Name }

// all is the table, in declaration order; define appends to it.
var all []*Setting

// define adds a setting to the table and returns it.
func define(s Setting) *Setting {
	p := &s
	all = append(all, p)
	return p
}

// All returns every setting, grouped in documentation order.
func All() []*Setting {
	out := make([]*Setting, 0, len(all))
	for _, g := range Groups {
		for _, s := range all {
			if s.Group == g {
				out = append(out, s)
			}
		}
	}
	return out
}

// For returns the settings b reads, in documentation order.
func For(b Binary) []*Setting {
	var out []*Setting
	for _, s := range All() {
		if s.ReadBy(b) {
			out = append(out, s)
		}
	}
	return out
}

// Lookup returns the setting named name, or nil.
func Lookup(name string) *Setting {
	for _, s := range all {
		if s.Name == name {
			return s
		}
	}
	return nil
}
