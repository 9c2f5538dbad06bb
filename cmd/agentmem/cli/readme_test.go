package cli_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/cmd/agentmem/cli"
)

// TestReadmeCommands runs every bin/agentmem command line of the README's
// shell examples (those without shell variables, pipes or placeholders)
// against an API that is not there: none may be a usage error, so the
// README's commands, flags and argument forms stay those the CLI takes.
// The example's exports apply to the lines after them, as in a shell.
func TestReadmeCommands(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	env, stopped := map[string]string{}, stoppedURL(t)
	ran := 0
	for _, line := range shellLines(string(b)) {
		words, ok := shellWords(line)
		if !ok {
			continue
		}
		if words[0] == "export" {
			for _, w := range words[1:] {
				if k, v, ok := strings.Cut(w, "="); ok {
					env[k] = v
				}
			}
			continue
		}
		if words[0] != "bin/agentmem" {
			continue
		}
		o := opts{url: stopped, env: map[string]string{}}
		for k, v := range env {
			o.env[k] = v
		}
		delete(o.env, "AGENTMEM_API_URL") // run's own, the stopped API
		r := run(t, o, words[1:]...)
		ran++
		if r.code == cli.ExitUsage || strings.Contains(r.stderr, "--help)") {
			t.Errorf("README: %s\ncode %d, stderr %q", line, r.code, r.stderr)
		}
	}
	if ran < 20 {
		t.Errorf("ran %d README command lines; the README has more", ran)
	}
}

// shellLines returns the lines of the ```sh blocks of a Markdown
// document, continuation lines joined and comments removed.
func shellLines(doc string) []string {
	var out []string
	in, cont := false, ""
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			in = true
			continue
		case strings.HasPrefix(line, "```"):
			in = false
			continue
		case !in:
			continue
		}
		if i := strings.Index(line, "  #"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutSuffix(line, `\`); ok {
			cont += rest + " "
			continue
		}
		if line = cont + line; line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
		cont = ""
	}
	return out
}

// shellWords splits a command line as the shell would, for the simple
// lines it accepts: no variables, pipes, redirections or placeholders.
func shellWords(line string) ([]string, bool) {
	if strings.ContainsAny(line, "$|<>;&`") {
		return nil, false
	}
	var words []string
	var cur strings.Builder
	quote, inWord := rune(0), false
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, false
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, len(words) > 0
}
