package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// OutputCap is how much of a run's output extract sends: its last 48 KiB,
// less if JSON escaping would take the request body over the API's 64 KiB
// limit (agentmem.MaxBodyBytes). The end of a run (results, errors, the
// agent's summary) is what holds its learnings.
const OutputCap = 48 << 10

// bodyBudget is the largest request body extract sends, under the API's
// limit with room to spare.
const bodyBudget = agentmem.MaxBodyBytes - 1<<10

// Extractor is one way of getting a run's learnings (--llm MODE). "server"
// sends the output for the server's LLM; "claude" (extract_claude.go)
// runs the claude CLI in the container and sends the learnings instead.
// Another mode is one more entry in extractors, in its own file.
type Extractor struct {
	// Run turns the run's prepared output into the extraction route's
	// body; skipped lists what the mode itself refused (e.g. learnings
	// that break the memory rules), for the report.
	Run func(ctx context.Context, in *Invocation, base agentmem.ExtractionInput, output string) (body agentmem.ExtractionInput, skipped []agentmem.SkippedLearning, err error)
	// Timeout is the command's default timeout in this mode
	// (0: PipelineTimeout); --timeout and AGENTMEM_TIMEOUT override it.
	Timeout time.Duration
	// Help describes the mode in --llm's help.
	Help string
}

// extractors maps --llm values to their Extractor.
var extractors = map[string]Extractor{
	"server": {
		Help: "server (the API's LLM reads the output)",
		Run: func(_ context.Context, _ *Invocation, base agentmem.ExtractionInput, output string) (agentmem.ExtractionInput, []agentmem.SkippedLearning, error) {
			base.Output = &output
			return base, nil, nil
		},
	},
}

// extractorNames lists the modes, sorted; with help, each with its Help.
func extractorNames(help bool) string {
	names := make([]string, 0, len(extractors))
	for n := range extractors {
		if help {
			n = extractors[n].Help
		}
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func init() {
	Register(&Command{
		Name: "extract", Group: GroupPipeline, Pipeline: true, OwnTimeout: true, Needs: NeedsAgentProject,
		Fallback: "no learnings were saved from this run",
		Summary:  "send a run's output to the extraction route, which saves its learnings as memories",
		Description: `Reads the run's output (--input FILE, or standard input), keeps its last 48 KiB (less if JSON escaping would take the request over the API's 64 KiB body limit; a first line then says the start was cut), removes terminal escape sequences and control characters, and posts it to POST /api/agents/{agent}/extractions with the run id. The server asks its LLM for up to 5 learnings and saves each as a memory (source "extraction"); a retried run id saves nothing twice, so retrying is safe.

--llm claude extracts in the container instead, with no LLM on the server: it runs the claude CLI (claude -p --safe-mode in an empty directory: no tools, one turn, the shared extraction prompt, answers capped at 1024 tokens, and none of the user's CLAUDE.md files, auto-memory or hooks; AGENTMEM_CLAUDE_COMMAND names another binary, AGENTMEM_LLM_MODEL a model), parses its answer defensively and sends the learnings, the run summary and whether the run succeeded. It works with the container's Claude login (ANTHROPIC_API_KEY, CLAUDE_CODE_OAUTH_TOKEN or ~/.claude/.credentials.json). The CLI's own retries are off: an overloaded or throttled API is tried 3 times in all, a refused key or request (a 4xx) once, and the error says which (from the CLI's api_error_status). Its default timeout is 60s, for the claude calls.

Best effort: on any failure (no output, API unreachable, no LLM configured on the server, claude missing or failing, timeout) one warning line goes to stderr and the exit status is 0; --strict exits non-zero instead. The server's LLM call takes seconds: give extract a longer --timeout than inject (e.g. 30s); if it times out, the server may still save the learnings.`,
		Examples: []string{
			"agentmem extract --agent nori --project checkout-service --run-id run-42 --input run.log --timeout 30s",
			"claude -p \"$PROMPT\" | tee /tmp/run.log; agentmem extract --agent nori --project checkout-service --run-id \"$RUN_ID\" < /tmp/run.log",
			"agentmem extract --llm claude --agent nori --project checkout-service --run-id run-42 --input run.log",
		},
		New: func() Runner { return &extractCommand{} },
	})
}

type extractCommand struct {
	runID, input, llm string
	json, quiet       bool
}

func (c *extractCommand) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.runID, "run-id", "", "the pipeline run's `ID`; extraction is idempotent per run id (env AGENTMEM_RUN_ID)")
	fs.StringVar(&c.input, "input", "-", "`FILE` holding the run's output, - for standard input")
	fs.StringVar(&c.llm, "llm", "server", "who extracts the learnings (`MODE`): "+extractorNames(true))
	JSONFlag(fs, &c.json)
	fs.BoolVar(&c.quiet, "quiet", false, "print nothing on success")
}

func (c *extractCommand) Run(ctx context.Context, in *Invocation) error {
	mode, ok := extractors[c.llm]
	if !ok {
		return Usagef("--llm %q is not available; use one of: %s", c.llm, extractorNames(false))
	}
	if mode.Timeout > 0 && in.globals.timeout == "" {
		in.timeout = mode.Timeout
	}
	ctx, cancel := in.WithTimeout(ctx)
	defer cancel()
	if err := in.NoArgs("the output goes in --input FILE or standard input"); err != nil {
		return err
	}
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	if c.runID == "" {
		c.runID = in.settings.runID
	}
	if c.runID == "" {
		return Usagef("--run-id is required (or AGENTMEM_RUN_ID)")
	}
	if err := agentmem.ValidateRunID(c.runID); err != nil {
		return Usagef("--run-id: %s", agentmem.ErrorMessage(err))
	}

	var r io.Reader = in.Stdin
	if c.input == "-" {
		if in.StdinIsTerminal() {
			return Usagef("no input: pipe the run's output into agentmem extract, or pass --input FILE")
		}
	} else {
		f, err := os.Open(c.input)
		if err != nil {
			return fmt.Errorf("read the run's output: %w", err)
		}
		defer f.Close()
		r = f
	}
	raw, total, err := readTail(r, OutputCap)
	if err != nil {
		return fmt.Errorf("read the run's output: %w", err)
	}
	output, cut := PrepareOutput(raw, total)
	if output == "" {
		return fmt.Errorf("the run's output is empty: nothing to extract")
	}

	body, skipped, err := mode.Run(ctx, in, agentmem.ExtractionInput{ProjectID: scope.Project, RunID: c.runID}, output)
	if err != nil {
		return err
	}
	if body.Output != nil && *body.Output != "" {
		fitted := FitOutput(body, *body.Output, total, cut)
		body.Output = &fitted
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	res, err := client.CreateExtraction(ctx, scope.Agent, body)
	if err != nil {
		return err
	}
	res.Skipped = append(res.Skipped, skipped...)
	if c.json {
		return writeJSON(in.Stdout, res)
	}
	if !c.quiet {
		in.Notef("extract: run %s: %s", c.runID, extractionSummary(res))
		for _, n := range res.Notes {
			in.Notef("extract: note: %s", n)
		}
	}
	return nil
}

func extractionSummary(res agentmem.ExtractionResult) string {
	s := fmt.Sprintf("saved %d learning%s", len(res.Saved), plural(len(res.Saved)))
	if res.Replayed {
		s = "already extracted before: nothing saved again"
	}
	if n := len(res.Superseded); n > 0 && !res.Replayed {
		s += fmt.Sprintf(", replaced %d", n)
	}
	if len(res.Skipped) > 0 {
		reasons := map[string]int{}
		for _, sk := range res.Skipped {
			reasons[sk.Reason]++
		}
		var parts []string
		for r, n := range reasons {
			parts = append(parts, fmt.Sprintf("%d %s", n, r))
		}
		sort.Strings(parts)
		s += fmt.Sprintf(", skipped %d (%s)", len(res.Skipped), strings.Join(parts, ", "))
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// FitOutput returns the output to send: output, cut from the front
// until the request body base+output encodes to at most bodyBudget bytes
// (JSON escaping can make a body larger than its text), behind a first
// line saying that the start was cut when it was (cut, or cut here).
// total is the size of the whole original output.
func FitOutput(base agentmem.ExtractionInput, output string, total int64, cut bool) string {
	for {
		sent := output
		if cut {
			sent = truncationNote(total) + output
		}
		base.Output = &sent
		b, _ := json.Marshal(base)
		excess := len(b) - bodyBudget
		if excess <= 0 || output == "" {
			return sent
		}
		// Each byte cut saves at least one encoded byte; cut a little more
		// than the excess and start at a line.
		output, cut = startAtLine(output, excess+64), true
	}
}

// truncationNote is the first line of an output whose start was cut.
func truncationNote(total int64) string {
	return fmt.Sprintf("[agentmem: the start of this %d-byte output was cut; what follows is its end]\n", total)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
