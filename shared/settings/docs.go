package settings

import (
	"fmt"
	"slices"
	"strings"
)

//go:generate go run ../../tools/settingsdoc -root ../..

// Doc is a generated block of a Markdown file: the text between its Begin
// and End markers is Render's output.
type Doc struct {
	// Path is the file, relative to the repository root.
	Path       string
	Begin, End string
	Render     func() string
}

// Docs are the blocks generated from the table: the README's settings
// section and docs/DEPLOY.md's per-function list.
var Docs = []Doc{
	{Path: "README.md", Begin: "<!-- settings:begin -->\n", End: "<!-- settings:end -->", Render: Markdown},
	{Path: "docs/DEPLOY.md", Begin: "<!-- function-settings:begin -->\n", End: "<!-- function-settings:end -->", Render: FunctionsMarkdown},
}

// Update returns text with d's block rendered anew, and whether it
// changed. It fails when text lacks the markers.
func (d Doc) Update(text string) (string, bool, error) {
	begin := strings.Index(text, d.Begin)
	if begin < 0 {
		return text, false, fmt.Errorf("%s lacks the marker %q", d.Path, strings.TrimSpace(d.Begin))
	}
	begin += len(d.Begin)
	end := strings.Index(text[begin:], d.End)
	if end < 0 {
		return text, false, fmt.Errorf("%s lacks the marker %q after %q", d.Path, d.End, strings.TrimSpace(d.Begin))
	}
	end += begin
	want := d.Render()
	if text[begin:end] == want {
		return text, false, nil
	}
	return text[:begin] + want + text[end:], true, nil
}

// Markdown renders the table as the README's settings section: one table
// per group.
func Markdown() string {
	var b strings.Builder
	for i, g := range Groups {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "#### %s\n\n| setting | default | read by | what it does |\n|---|---|---|---|\n", g)
		for _, s := range All() {
			if s.Group != g {
				continue
			}
			doc := s.Doc
			if s.Secret {
				doc = "**Secret.** " + doc
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", s.Name, cell(value(s.Default)), readers(s.Readers), cell(doc))
		}
	}
	return b.String()
}

// FunctionsMarkdown renders, for each Lambda function, the settings it
// reads (docs/DEPLOY.md).
func FunctionsMarkdown() string {
	var b strings.Builder
	b.WriteString("| function | settings it reads |\n|---|---|\n")
	for _, fn := range Functions {
		var names []string
		for _, s := range For(fn) {
			n := "`" + s.Name + "`"
			if s.Secret {
				n += " (secret)"
			}
			names = append(names, n)
		}
		fmt.Fprintf(&b, "| %s | %s |\n", fn, strings.Join(names, ", "))
	}
	return b.String()
}

// readers renders a reader list, with "every function" for the four.
func readers(bs []Binary) string {
	var parts []string
	rest := bs
	if !slices.ContainsFunc(Functions, func(f Binary) bool { return !slices.Contains(bs, f) }) {
		parts = append(parts, "every function")
		rest = slices.DeleteFunc(slices.Clone(bs), func(b Binary) bool { return slices.Contains(Functions, b) })
	}
	for _, b := range rest {
		switch b {
		case DevServer:
			parts = append(parts, "make dev")
		case Tests:
			parts = append(parts, "make test")
		default:
			parts = append(parts, string(b))
		}
	}
	return strings.Join(parts, ", ")
}

// value renders a default: a bare value as code, a phrase as it is.
func value(def string) string {
	if def == "" || strings.ContainsAny(def, " `") {
		return def
	}
	return "`" + def + "`"
}

// cell keeps a table cell on one line.
func cell(s string) string {
	if s == "" {
		return ""
	}
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
