// Package prompts holds every LLM prompt agentmem sends, one file per
// prompt, embedded at build time. Each file starts with a front-matter line
// "version: N"; the version travels with the prompt's name into logs and
// stored records, so that a change of wording is visible in what it
// produced. Callers fill the prompt's {{placeholders}} with Render.
package prompts

import (
	"embed"
	"fmt"
	"strconv"
	"strings"
)

//go:embed *.md
var files embed.FS

// Prompt is one named, versioned prompt.
type Prompt struct {
	Name    string
	Version int
	// Text is the prompt without its front matter.
	Text string
}

// ID is "name@vN", for logs and records.
func (p Prompt) ID() string { return p.Name + "@v" + strconv.Itoa(p.Version) }

// Render replaces each {{key}} of the prompt with vars[key]. A placeholder
// without a value is an error, so a prompt never goes out half-filled.
// Every value is data: it is made Inert against the prompt's Elements, so
// that no value can close the element it is shown in or open another.
func (p Prompt) Render(vars map[string]string) (string, error) {
	elements := p.Elements()
	var b strings.Builder
	rest := p.Text
	for {
		i := strings.Index(rest, "{{")
		if i < 0 {
			b.WriteString(rest)
			return b.String(), nil
		}
		j := strings.Index(rest[i:], "}}")
		if j < 0 {
			return "", fmt.Errorf("prompt %s: unclosed {{", p.ID())
		}
		key := strings.TrimSpace(rest[i+2 : i+j])
		v, ok := vars[key]
		if !ok {
			return "", fmt.Errorf("prompt %s: no value for {{%s}}", p.ID(), key)
		}
		b.WriteString(rest[:i])
		b.WriteString(Inert(v, elements...))
		rest = rest[i+j+2:]
	}
}

// Get returns the prompt stored as <name>.md.
func Get(name string) (Prompt, error) {
	raw, err := files.ReadFile(name + ".md")
	if err != nil {
		return Prompt{}, fmt.Errorf("no prompt %q", name)
	}
	head, body, ok := strings.Cut(string(raw), "\n")
	v, found := strings.CutPrefix(head, "version: ")
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if !ok || !found || err != nil || n < 1 {
		return Prompt{}, fmt.Errorf("prompt %q: first line must be \"version: N\"", name)
	}
	return Prompt{Name: name, Version: n, Text: strings.TrimLeft(body, "\n")}, nil
}

// Must is Get for prompts that ship with the binary: a missing or
// malformed one is a build mistake, caught by the package's tests.
func Must(name string) Prompt {
	p, err := Get(name)
	if err != nil {
		panic(err)
	}
	return p
}

// Names lists the embedded prompts.
func Names() []string {
	entries, _ := files.ReadDir(".")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".md"))
	}
	return out
}
