package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
)

func init() {
	Register(&Command{
		Name: "list", Group: GroupMemories, Needs: NeedsAgentProject, Shorthand: ShorthandAlone,
		Summary: "list memories, newest first, with their ids",
		Description: `Lists the newest memories (50 unless --limit) with id, creation time (UTC), type, source and the first line of the content. The ids are what agentmem rm takes.

--state superseded lists the memories that another replaced (agentmem add --replaces, an extraction that found them out of date), --state retired those a dream or a person retired: they are no longer injected and stay restorable (agentmem history ID, agentmem restore ID VERSION).

Pages: when older memories remain, the note on stderr (and nextCursor in --json) gives the cursor that continues the listing: --cursor CURSOR lists from there. --all reads every page and prints each as it comes, however many memories there are; when a page fails, what was printed ends there (--json: still one JSON document, with more and nextCursor), the note gives the cursor that continues, and the exit status is 1.`,
		Examples: []string{
			"agentmem list --agent nori --project checkout-service",
			"agentmem list --agent nori --project checkout-service --type decision --all",
			"AGENTMEM_AGENT=nori AGENTMEM_PROJECT=checkout-service agentmem list --json | jq -r '.memories[].id'",
			`agentmem list --agent nori --project checkout-service --limit 10 --cursor "$(agentmem list --agent nori --project checkout-service --limit 10 --json | jq -r .nextCursor)"`,
			"agentmem list --agent nori --project checkout-service --state superseded",
			"agentmem list checkout-service nori    # the shorthand",
		},
		New: func() Runner { return &listCommand{} },
	})
}

type listCommand struct {
	typ, cursor, state string
	limit              int
	all                bool
	out                OutputFlag
}

func (c *listCommand) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.typ, "type", "", "only memories of this `TYPE` (note, learning, finding, decision, blocker, pattern, session)")
	fs.StringVar(&c.state, "state", agentmem.StateLive, "`STATE` of the memories to list: live (those injected), superseded or retired (those that left, restorable)")
	fs.IntVar(&c.limit, "limit", agentmem.DefaultListLimit, "at most `N` memories")
	fs.StringVar(&c.cursor, "cursor", "", "continue a listing: the `CURSOR` a previous one ended with (nextCursor)")
	fs.BoolVar(&c.all, "all", false, "every memory, however many, page by page")
	c.out.Define(fs)
}

func (c *listCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	t := agentmem.Type(c.typ)
	if t != "" && !t.Valid() {
		return Usagef("--type %q is not a memory type%s", c.typ, didYouMean(c.typ, stringsOf(agentmem.Types)))
	}
	states := []string{agentmem.StateLive, agentmem.StateSuperseded, agentmem.StateRetired}
	if !slices.Contains(states, c.state) {
		return Usagef("--state %q is not live, superseded or retired%s", c.state, didYouMean(c.state, states))
	}
	if c.limit < 1 {
		return Usagef("--limit must be at least 1")
	}
	if c.all && in.IsSet("limit") {
		return Usagef("--all and --limit do not go together")
	}
	asJSON, err := c.out.JSON()
	if err != nil {
		return err
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	var p listPrinter = &memoryTable{w: in.Stdout}
	if asJSON {
		p = &jsonList{w: in.Stdout, key: "memories"}
	}
	n, next, err := c.read(ctx, client, scope, t, p)
	if err != nil {
		if n > 0 && next != "" {
			// Part of the list is printed: end it (valid JSON, saying
			// more remain) and say where to go on from.
			if endErr := p.end(next); endErr != nil {
				return errors.Join(err, endErr)
			}
			in.Notef("list stopped after %d memories: --cursor %s continues", n, next)
		}
		return err
	}
	if err := p.end(next); err != nil {
		return err
	}
	switch {
	case asJSON:
	case n == 0 && c.cursor == "" && c.state != agentmem.StateLive:
		in.Notef("no %s memories for %s in %s", c.state, scope.Agent, scope.Project)
	case n == 0 && c.cursor == "":
		in.Notef("no memories for %s in %s", scope.Agent, scope.Project)
	case next != "":
		in.Notef("showing %d; older memories remain: --cursor %s continues, --all lists every one", n, next)
	}
	return nil
}

// read prints the memories to list page by page as they come, and returns
// how many it printed and the cursor of the older ones remaining ("" when
// none remain); when a page fails, the cursor of that page.
func (c *listCommand) read(ctx context.Context, client *apiclient.Client, scope Scope, t agentmem.Type, p listPrinter) (int, string, error) {
	opt := apiclient.ListOptions{ProjectID: scope.Project, Type: t, Cursor: c.cursor}
	if c.state != agentmem.StateLive {
		opt.State = c.state
	}
	n := 0
	for c.all || n < c.limit {
		opt.Limit = agentmem.MaxListLimit
		if !c.all {
			opt.Limit = min(c.limit-n, agentmem.MaxListLimit)
		}
		page, err := client.ListMemories(ctx, scope.Agent, opt)
		if err != nil {
			return n, opt.Cursor, err
		}
		for _, m := range page.Memories {
			if err := p.item(m); err != nil {
				return n, "", err
			}
		}
		n += len(page.Memories)
		if page.NextCursor == "" || len(page.Memories) == 0 || page.NextCursor == opt.Cursor {
			return n, "", nil
		}
		opt.Cursor = page.NextCursor
	}
	return n, opt.Cursor, nil
}

// listPrinter prints a list item by item, as pages come.
type listPrinter interface {
	item(v any) error
	// end finishes the list; next is the cursor of what remains ("").
	end(next string) error
}

// memoryTable prints memories as a table with fixed columns, so that
// pages printed as they come line up.
type memoryTable struct {
	w      io.Writer
	header bool
}

func (t *memoryTable) item(v any) error {
	m := v.(agentmem.Memory)
	if !t.header {
		t.header = true
		if _, err := fmt.Fprintf(t.w, "%-26s  %-16s  %-8s  %-10s  %s\n", "ID", "CREATED (UTC)", "TYPE", "SOURCE", "CONTENT"); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(t.w, "%-26s  %-16s  %-8s  %-10s  %s\n", m.ID, shortTime(m.CreatedAt), m.Type, m.Source, summaryLine(m, 72))
	return err
}

func (t *memoryTable) end(string) error { return nil }

// jsonList prints {"<key>": [...], "more": bool, "nextCursor": "..."}
// item by item: one JSON document, however many pages it spans.
type jsonList struct {
	w     io.Writer
	key   string
	n     int
	extra []jsonField // fields after the list (before more and nextCursor)
}

// jsonField is a field of a JSON object, in order.
type jsonField struct {
	name  string
	value any
}

func (l *jsonList) start() error {
	_, err := fmt.Fprintf(l.w, "{\n  %q: [", l.key)
	return err
}

func (l *jsonList) item(v any) error {
	if l.n == 0 {
		if err := l.start(); err != nil {
			return err
		}
	}
	b, err := indentJSON(v, "    ")
	if err != nil {
		return err
	}
	sep := ",\n    "
	if l.n == 0 {
		sep = "\n    "
	}
	l.n++
	_, err = fmt.Fprintf(l.w, "%s%s", sep, b)
	return err
}

func (l *jsonList) end(next string) error {
	if l.n == 0 {
		if err := l.start(); err != nil {
			return err
		}
		if _, err := io.WriteString(l.w, "]"); err != nil {
			return err
		}
	} else if _, err := io.WriteString(l.w, "\n  ]"); err != nil {
		return err
	}
	fields := append(slices.Clone(l.extra), jsonField{"more", next != ""})
	if next != "" {
		fields = append(fields, jsonField{"nextCursor", next})
	}
	for _, f := range fields {
		b, err := indentJSON(f.value, "  ")
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(l.w, ",\n  %q: %s", f.name, b); err != nil {
			return err
		}
	}
	_, err := io.WriteString(l.w, "\n}\n")
	return err
}

// indentJSON encodes v as writeJSON does (indented, HTML left as it is),
// each line after the first starting with prefix.
func indentJSON(v any, prefix string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func stringsOf[T ~string](list []T) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = string(v)
	}
	return out
}

func shortTime(createdAt string) string {
	t, err := agentmem.ParseTime(createdAt)
	if err != nil {
		return createdAt
	}
	return t.UTC().Format("2006-01-02 15:04")
}

// summaryLine renders a memory on one line of at most width characters.
func summaryLine(m agentmem.Memory, width int) string {
	s := m.Content
	switch m.Type {
	case agentmem.TypeDecision:
		if m.Rationale != "" {
			s += " (why: " + m.Rationale + ")"
		}
	case agentmem.TypeBlocker:
		s = "[" + m.Status + "] " + s
	}
	if m.Pinned {
		s = "📌 " + s
	}
	s = oneLine(s)
	if utf8.RuneCountInString(s) > width {
		r := []rune(s)
		s = string(r[:width-1]) + "…"
	}
	return s
}
