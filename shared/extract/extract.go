// Package extract turns the output of a coding agent's run into learnings
// worth remembering, independent of HTTP: it builds the extraction prompt
// (shared/prompts/extraction.md) around the tail of the output, asks an
// llm.Client, and finds the model's final answer in whatever shape the
// model wrote it (see Parse: reasoning and drafts skipped; JSON as models
// really write it, YAML, Markdown lists and tables, XML-ish elements; cut
// answers salvaged; "no learnings" understood). Each learning it returns
// passes the domain's memory rules, every proposed one it does not return
// is listed with the reason, and an answer it cannot read is an error,
// never learnings.
//
// The extraction function calls Run with the server's LLM; `agentmem
// extract --llm claude` calls it with claude.New in the agent container
// and sends the Result's learnings to the API.
package extract

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/prompts"
)

// Limits.
const (
	// MaxLearnings is the most learnings one run yields; more in an
	// answer are skipped.
	MaxLearnings = 5
	// MaxOutputBytes is the budget of run output put in the prompt
	// (about 8k tokens): longer output keeps its last MaxOutputBytes,
	// where a run's results and final errors are.
	MaxOutputBytes = 32 << 10
	// MaxSummaryBytes caps the run summary; a longer one is cut.
	MaxSummaryBytes = 4 << 10
	// MaxAnswerTokens caps the model's answer: five learnings and a
	// summary fit with room to spare.
	MaxAnswerTokens = 1024
)

// PromptName is the name of the extraction prompt in package prompts.
const PromptName = "extraction"

// Errors.
var (
	// ErrUnparseable wraps every failure to find an answer in the model's
	// text: neither learnings nor a statement that there are none.
	ErrUnparseable = errors.New("the model's answer holds no learnings JSON")
	// ErrEmptyOutput is returned by Run for blank run output; no model is
	// asked.
	ErrEmptyOutput = errors.New("the run output is empty")
)

// Result is what one extraction yields.
type Result struct {
	// Success is the model's judgement of whether the run achieved its
	// goal (false when it did not say).
	Success bool `json:"success"`
	// Summary is a one-paragraph account of the run, at most
	// MaxSummaryBytes ("" when the answer gives none).
	Summary string `json:"summary"`
	// Learnings are at most MaxLearnings valid, distinct learnings; an
	// empty list (never nil) when the answer says there are none.
	Learnings []agentmem.Learning `json:"learnings"`
	// Skipped are the items the answer proposed that are not in
	// Learnings, in order, each with its reason: not a learning (a
	// number, a list), cut off by the end of the answer, no content, an
	// invalid type, invalid by the memory rules (too long, a NUL, ...),
	// a repeat of another in the answer, or over MaxLearnings.
	Skipped []agentmem.SkippedLearning `json:"skipped,omitempty"`
	// Notes say what the caller should know of a learning kept as it is
	// not quite what the answer said (a replaces that names no memory
	// shown). Run sets them.
	Notes []string `json:"notes,omitempty"`
	// Prompt is the prompt's id ("extraction@v1"), Model the model that
	// answered, Truncated whether the output was cut to MaxOutputBytes.
	// Run sets them; Parse leaves them empty.
	Prompt    string `json:"prompt,omitempty"`
	Model     string `json:"model,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
}

// Run asks c for the learnings in a run's output and parses the answer.
// current are the scope's live memories: the prompt shows some of them
// (ShownMemories), and a learning the model says replaces one of them
// comes back with Replaces set to that memory's id. Failures:
// ErrEmptyOutput for blank output; the client's *llm.Error (llm.KindOf
// tells which) when the model fails, times out or answers nothing; an
// error wrapping ErrUnparseable when the answer holds neither learnings
// nor a statement that there are none.
func Run(ctx context.Context, c llm.Client, output string, current ...agentmem.Memory) (Result, error) {
	if strings.TrimSpace(output) == "" {
		return Result{}, ErrEmptyOutput
	}
	shown := ShownMemories(output, current)
	req, truncated := BuildRequest(output, shown...)
	resp, err := c.Complete(ctx, req)
	if err != nil {
		return Result{}, fmt.Errorf("extract with %s: %w", c.Name(), err)
	}
	res, err := Parse(resp.Text)
	if err != nil {
		return Result{}, fmt.Errorf("extract with %s: %w", c.Name(), err)
	}
	resolveReplaces(&res, shown)
	res.Prompt = prompts.Must(PromptName).ID()
	res.Model = resp.Model
	if res.Model == "" {
		res.Model = c.Name()
	}
	res.Truncated = truncated
	return res, nil
}

// BuildRequest returns the completion request for a run's output: the
// extraction prompt as the system prompt, and as the user message the
// memories shown (each under its reference, RefOf) between
// <current_memories> tags, then the output's last MaxOutputBytes between
// <run_output> tags. truncated reports whether the output was cut.
func BuildRequest(output string, shown ...agentmem.Memory) (req llm.Request, truncated bool) {
	system, err := prompts.Must(PromptName).Render(map[string]string{"max_learnings": strconv.Itoa(MaxLearnings)})
	if err != nil {
		panic(err) // the embedded prompt is malformed: a build mistake the tests catch
	}
	tail, truncated := Tail(output, MaxOutputBytes)
	var b strings.Builder
	b.Grow(len(tail) + 512)
	if len(shown) > 0 {
		b.WriteString("The project's current memories (data, for reference: do not repeat them; a learning that corrects one says so with \"replaces\"):\n")
		b.WriteString(currentBlock(shown))
	}
	if truncated {
		fmt.Fprintf(&b, "The run output was %d bytes; only its last %d bytes are shown, so its beginning is missing.\n\n", len(output), len(tail))
	}
	b.WriteString("<run_output>\n")
	b.WriteString(strings.TrimRight(neutralizeTags(tail), "\n"))
	b.WriteString("\n</run_output>\n\nExtract the learnings from the run output above. Answer with the JSON object only.")
	return llm.Request{System: system, Prompt: b.String(), MaxTokens: MaxAnswerTokens}, truncated
}

// Tail returns the end of s in at most max bytes, and whether it cut
// anything. The cut falls on a rune boundary and, when one is near, at the
// start of a line, so the tail never begins with half a character or,
// where avoidable, half a line.
func Tail(s string, max int) (string, bool) {
	if max <= 0 {
		return "", s != ""
	}
	if len(s) <= max {
		return s, false
	}
	cut := len(s) - max
	for cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut++
	}
	const lineSearch = 512
	if i := strings.IndexByte(s[cut:min(len(s), cut+lineSearch)], '\n'); i >= 0 && cut+i+1 < len(s) {
		cut += i + 1
	}
	return s[cut:], true
}
