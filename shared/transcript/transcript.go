// Package transcript reads Claude Code session transcripts and computes
// the context tier of seed 001 from them: a session's messages by role,
// its token usage and a running summary, a deterministic digest of what
// the session was asked, did and answered.
//
// A transcript is the JSONL file Claude Code appends to while a session
// runs (~/.claude/projects/<encoded-cwd>/<session-id>.jsonl; hooks get its
// path as transcript_path). Each line is one JSON object with a "type":
//
//   - "user": message.content is the prompt as a string, or an array of
//     blocks: "text" blocks (a prompt), "tool_result" blocks (the output of
//     a tool call, with "is_error"), "image" blocks. isMeta lines are
//     injected by Claude Code, isCompactSummary lines are the summary a
//     compaction left.
//   - "assistant": message is the API's message (id, model, content blocks
//     "text", "thinking", "tool_use" with name and input, and usage with
//     input_tokens, output_tokens, cache_creation_input_tokens and
//     cache_read_input_tokens). Claude Code writes one line per content
//     block, each repeating the message's id and usage, so messages and
//     usage are counted once per message id.
//   - anything else ("system", "summary", "file-history-snapshot",
//     "progress", types to come) is counted and otherwise ignored.
//
// Every line carries uuid, timestamp, sessionId, cwd and gitBranch;
// isSidechain marks the lines of a subagent. Parse tolerates what it does
// not know and skips lines that are not JSON objects, counting them.
package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"time"
)

// MaxLineBytes is the longest line Parse reads; a longer one (a tool
// result holding a huge file) is skipped, counted as malformed.
const MaxLineBytes = 32 << 20

// Usage is a session's token usage, summed over its assistant messages.
type Usage struct {
	InputTokens              int64 `json:"inputTokens"`
	OutputTokens             int64 `json:"outputTokens"`
	CacheCreationInputTokens int64 `json:"cacheCreationInputTokens"`
	CacheReadInputTokens     int64 `json:"cacheReadInputTokens"`
}

// Total is every token the usage counts.
func (u Usage) Total() int64 {
	return u.InputTokens + u.OutputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
}

// Messages counts a session's messages by role.
type Messages struct {
	// User counts the prompts: user lines with text (slash commands
	// included), not tool results nor lines Claude Code injected.
	User int `json:"user"`
	// Assistant counts the model's messages (one per message id).
	Assistant int `json:"assistant"`
	// ToolResults counts the tool results returned to the model.
	ToolResults int `json:"toolResults"`
	// Subagent counts the assistant messages of subagents (sidechains),
	// not included in Assistant.
	Subagent int `json:"subagent,omitempty"`
}

// ToolUse is how many times the session called one tool.
type ToolUse struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// Session is what a transcript tells about its session.
type Session struct {
	ID        string `json:"sessionId,omitempty"`
	Cwd       string `json:"cwd,omitempty"`
	GitBranch string `json:"gitBranch,omitempty"`
	// Start and End are the first and last timestamps (zero without any).
	Start time.Time `json:"start,omitzero"`
	End   time.Time `json:"end,omitzero"`
	// Models are the models that answered, in order of first use.
	Models   []string `json:"models,omitempty"`
	Messages Messages `json:"messages"`
	Usage    Usage    `json:"usage"`
	// Requests are the user's prompts in order (the first one is what the
	// session was started for), as single lines.
	Requests []string `json:"requests,omitempty"`
	// LastReply is the last text the model wrote in the main session.
	LastReply string `json:"lastReply,omitempty"`
	// Tools are the tools called, most used first.
	Tools      []ToolUse `json:"tools,omitempty"`
	ToolErrors int       `json:"toolErrors,omitempty"`
	// FilesChanged (Edit, MultiEdit, Write, NotebookEdit) and FilesRead
	// (Read) in order of first use, relative to Cwd when inside it.
	FilesChanged []string `json:"filesChanged,omitempty"`
	FilesRead    []string `json:"filesRead,omitempty"`

	// Lines counts the non-blank lines read; Skipped those that are not
	// JSON objects with a type (or are longer than MaxLineBytes); Ignored
	// the lines of other types, by type.
	Lines   int            `json:"lines"`
	Skipped int            `json:"skipped"`
	Ignored map[string]int `json:"ignored,omitempty"`
}

// line is the part of a transcript line Parse reads.
type line struct {
	Type             string   `json:"type"`
	UUID             string   `json:"uuid"`
	SessionID        string   `json:"sessionId"`
	Cwd              string   `json:"cwd"`
	GitBranch        string   `json:"gitBranch"`
	Timestamp        string   `json:"timestamp"`
	IsSidechain      bool     `json:"isSidechain"`
	IsMeta           bool     `json:"isMeta"`
	IsCompactSummary bool     `json:"isCompactSummary"`
	Message          *message `json:"message"`
}

type message struct {
	ID      string  `json:"id"`
	Model   string  `json:"model"`
	Content content `json:"content"`
	Usage   *usage  `json:"usage"`
}

// content is message.content: a string, or an array of blocks (a block
// that does not decode is left out). Anything else leaves it empty.
type content struct {
	text     string
	blocks   []block
	isString bool
}

// UnmarshalJSON implements json.Unmarshaler; it never fails, so that a
// strange content does not make its whole line unreadable.
func (c *content) UnmarshalJSON(raw []byte) error {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) > 0 && raw[0] == '"':
		c.isString = true
		_ = json.Unmarshal(raw, &c.text)
	case len(raw) > 0 && raw[0] == '[':
		if json.Unmarshal(raw, &c.blocks) == nil {
			return nil
		}
		// One bad block: decode them one by one and keep the good ones.
		c.blocks = nil
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return nil
		}
		for _, it := range items {
			var b block
			if json.Unmarshal(it, &b) == nil {
				c.blocks = append(c.blocks, b)
			}
		}
	}
	return nil
}

type usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
}

type block struct {
	Type    string          `json:"type"`
	ID      string          `json:"id"`
	Text    string          `json:"text"`
	Name    string          `json:"name"`
	Input   json.RawMessage `json:"input"`
	IsError bool            `json:"is_error"`
}

// parser accumulates a Session.
type parser struct {
	s       Session
	seen    map[string]bool  // assistant message ids counted
	usage   map[string]Usage // the largest usage seen per message id
	order   []string         // message ids in order, for a stable sum
	toolIDs map[string]bool  // tool_use ids counted
	tools   map[string]int
	changed map[string]bool
	read    map[string]bool
}

// Parse reads a transcript to its end. It fails only when r does; lines
// it cannot use are counted in Skipped or Ignored.
func Parse(r io.Reader) (*Session, error) {
	p := &parser{seen: map[string]bool{}, usage: map[string]Usage{}, toolIDs: map[string]bool{},
		tools: map[string]int{}, changed: map[string]bool{}, read: map[string]bool{}}
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 0; ; n++ {
		raw, tooLong, err := readLine(br, MaxLineBytes)
		if len(bytes.TrimSpace(raw)) > 0 || tooLong {
			p.s.Lines++
			if tooLong {
				p.s.Skipped++
			} else {
				p.line(raw, n)
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read the transcript: %w", err)
		}
	}
	return p.finish(), nil
}

// readLine reads one line without its end; a line over max bytes is
// consumed but not kept (tooLong).
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

func (p *parser) line(raw []byte, n int) {
	var l line
	if err := json.Unmarshal(raw, &l); err != nil || l.Type == "" {
		p.s.Skipped++
		return
	}
	if t, err := time.Parse(time.RFC3339Nano, l.Timestamp); err == nil {
		t = t.UTC()
		if p.s.Start.IsZero() || t.Before(p.s.Start) {
			p.s.Start = t
		}
		if t.After(p.s.End) {
			p.s.End = t
		}
	}
	if p.s.ID == "" {
		p.s.ID = oneLine(l.SessionID)
	}
	if p.s.Cwd == "" {
		p.s.Cwd = oneLine(l.Cwd)
	}
	if l.GitBranch != "" {
		p.s.GitBranch = oneLine(l.GitBranch) // the branch the session ended on
	}
	switch {
	case l.Type == "user" && l.Message != nil:
		p.user(l)
	case l.Type == "assistant" && l.Message != nil:
		key := l.Message.ID
		if key == "" {
			key = l.UUID
		}
		if key == "" {
			key = fmt.Sprintf("line %d", n)
		}
		p.assistant(l, key)
	default:
		if p.s.Ignored == nil {
			p.s.Ignored = map[string]int{}
		}
		p.s.Ignored[oneLine(l.Type)]++
	}
}

// commandMarkers start the user lines Claude Code writes for slash
// commands and their output: counted as messages, not as requests.
var commandMarkers = []string{"<command-name>", "<command-message>", "<local-command-stdout>", "<local-command-stderr>", "<command-args>"}

func (p *parser) user(l line) {
	if l.IsMeta || l.IsCompactSummary {
		return
	}
	text, blocks, isString := l.Message.Content.text, l.Message.Content.blocks, l.Message.Content.isString
	if !isString {
		var texts []string
		for _, b := range blocks {
			switch b.Type {
			case "tool_result":
				p.s.Messages.ToolResults++
				if b.IsError {
					p.s.ToolErrors++
				}
			case "text":
				texts = append(texts, b.Text)
			}
		}
		if len(texts) == 0 {
			return
		}
		text = strings.Join(texts, "\n")
	}
	if l.IsSidechain {
		return // a subagent's prompt comes from the main session's Task call
	}
	p.s.Messages.User++
	text = oneLine(stripReminders(text))
	if text == "" || strings.HasPrefix(text, "[Request interrupted") {
		return
	}
	for _, m := range commandMarkers {
		if strings.HasPrefix(text, m) {
			return
		}
	}
	p.s.Requests = append(p.s.Requests, text)
}

func (p *parser) assistant(l line, key string) {
	if !p.seen[key] {
		p.seen[key] = true
		p.order = append(p.order, key)
		if l.IsSidechain {
			p.s.Messages.Subagent++
		} else {
			p.s.Messages.Assistant++
		}
	}
	if u := l.Message.Usage; u != nil {
		got := Usage{max(u.InputTokens, 0), max(u.OutputTokens, 0), max(u.CacheCreationInputTokens, 0), max(u.CacheReadInputTokens, 0)}
		if got.Total() >= p.usage[key].Total() {
			p.usage[key] = got // streaming duplicates: the fullest count wins
		}
	}
	if m := oneLine(l.Message.Model); m != "" && m != "<synthetic>" && !slices.Contains(p.s.Models, m) {
		p.s.Models = append(p.s.Models, m)
	}
	for _, b := range l.Message.Content.blocks {
		switch b.Type {
		case "text":
			if t := oneLine(b.Text); t != "" && !l.IsSidechain {
				p.s.LastReply = t
			}
		case "tool_use":
			if b.ID != "" {
				if p.toolIDs[b.ID] {
					continue
				}
				p.toolIDs[b.ID] = true
			}
			name := oneLine(b.Name)
			if name == "" {
				name = "unnamed"
			}
			p.tools[name]++
			p.file(name, b.Input)
		}
	}
}

// fileTools are the tools whose input names a file they change or read.
var fileTools = map[string]bool{"Edit": true, "MultiEdit": true, "Write": true, "NotebookEdit": true, "Read": false}

func (p *parser) file(tool string, input json.RawMessage) {
	changes, ok := fileTools[tool]
	if !ok {
		return
	}
	var in struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
	}
	if json.Unmarshal(input, &in) != nil {
		return
	}
	f := oneLine(in.FilePath)
	if f == "" {
		f = oneLine(in.NotebookPath)
	}
	if f == "" {
		return
	}
	if p.s.Cwd != "" && strings.HasPrefix(f, strings.TrimSuffix(p.s.Cwd, "/")+"/") {
		f = path.Clean(strings.TrimPrefix(f, strings.TrimSuffix(p.s.Cwd, "/")+"/"))
	}
	if changes && !p.changed[f] {
		p.changed[f] = true
		p.s.FilesChanged = append(p.s.FilesChanged, f)
	}
	if !changes && !p.read[f] {
		p.read[f] = true
		p.s.FilesRead = append(p.s.FilesRead, f)
	}
}

func (p *parser) finish() *Session {
	for _, k := range p.order {
		u := p.usage[k]
		p.s.Usage.InputTokens += u.InputTokens
		p.s.Usage.OutputTokens += u.OutputTokens
		p.s.Usage.CacheCreationInputTokens += u.CacheCreationInputTokens
		p.s.Usage.CacheReadInputTokens += u.CacheReadInputTokens
	}
	for name, n := range p.tools {
		p.s.Tools = append(p.s.Tools, ToolUse{Name: name, Count: n})
	}
	slices.SortFunc(p.s.Tools, func(a, b ToolUse) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(a.Name, b.Name)
	})
	return &p.s
}

// stripReminders removes the <system-reminder> blocks Claude Code adds to
// prompts.
func stripReminders(s string) string {
	const open, closing = "<system-reminder>", "</system-reminder>"
	for {
		i := strings.Index(s, open)
		if i < 0 {
			return s
		}
		j := strings.Index(s[i:], closing)
		if j < 0 {
			return s[:i]
		}
		s = s[:i] + s[i+j+len(closing):]
	}
}

// oneLine folds white space (newlines included) into single spaces and
// replaces invalid UTF-8 and control characters.
func oneLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}
