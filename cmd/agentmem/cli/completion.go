package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
)

func init() {
	Register(&Command{
		Name: "completion", Args: "bash|zsh|fish", Group: GroupOther,
		Summary: "print the shell completion script of bash, zsh or fish",
		Description: `Prints a script that completes agentmem's commands, subcommands, flags and the values of flags that take a fixed set (--type, --output, --auth, --status), generated from the command table of this binary: regenerate it after an upgrade.

Load it in the current shell, or install it:
  bash: source <(agentmem completion bash), or save it as ~/.local/share/bash-completion/completions/agentmem
  zsh:  source <(agentmem completion zsh) after compinit, or save it as _agentmem in a directory of $fpath
  fish: agentmem completion fish | source, or save it as ~/.config/fish/completions/agentmem.fish`,
		Examples: []string{
			"agentmem completion bash > ~/.local/share/bash-completion/completions/agentmem",
			"agentmem completion zsh > \"${fpath[1]}/_agentmem\"",
			"agentmem completion fish > ~/.config/fish/completions/agentmem.fish",
			"source <(agentmem completion bash)    # this shell only",
		},
		New: func() Runner { return &completionCommand{} },
	})
}

type completionCommand struct{}

func (*completionCommand) Flags(*flag.FlagSet) {}

func (*completionCommand) Run(_ context.Context, in *Invocation) error {
	if len(in.Args) != 1 {
		return Usagef("expected agentmem completion bash, zsh or fish")
	}
	t := completionTree()
	switch in.Args[0] {
	case "bash":
		writeBash(in.Stdout, t)
	case "zsh":
		writeZsh(in.Stdout, t)
	case "fish":
		writeFish(in.Stdout, t)
	default:
		return Usagef("no completion for shell %q: use bash, zsh or fish%s", in.Args[0], didYouMean(in.Args[0], []string{"bash", "zsh", "fish"}))
	}
	return nil
}

// completionNode is a command path ("", "list", "personality set") as the
// completion scripts see it.
type completionNode struct {
	path  string
	subs  []completionWord // the words that may follow: commands, subcommands
	flags []completionFlag
}

type completionWord struct{ name, doc string }

type completionFlag struct {
	name, doc  string
	takesValue bool
	// values are the flag's fixed choices; fileValue flags take a path.
	values    []string
	fileValue bool
}

// flagValues are the choices of the flags that take one of a fixed set.
var flagValues = map[string][]string{
	"type":   stringsOf(agentmem.Types),
	"output": {"table", "json"},
	"auth":   {"sigv4", "none"},
	"status": {agentmem.StatusOpen, agentmem.StatusResolved},
	"date":   {"today", "yesterday"},
	"llm":    {"claude"},
}

// fileFlags take a path.
var fileFlags = map[string]bool{"transcript": true, "input": true, "workspace": true, "prompt-file": true}

// completionTree lists every command path of the table with what follows
// it, in the order help shows the commands.
func completionTree() []completionNode {
	top := completionNode{}
	for _, g := range groups {
		for _, c := range sortedCommands(g) {
			top.subs = append(top.subs, completionWord{c.Name, c.Summary})
		}
	}
	for _, name := range []string{"api-url", "auth", "timeout"} {
		top.flags = append(top.flags, completionFlag{name: name, doc: globalDocs[name], takesValue: true, values: flagValues[name]})
	}
	top.flags = append(top.flags, completionFlag{name: "version", doc: "print the version, commit and build date"},
		completionFlag{name: "help", doc: "show the help"})
	nodes := []completionNode{top}
	for _, w := range top.subs {
		c := lookup(commands, w.name)
		nodes = append(nodes, commandNode(c, c.Name))
		for _, s := range c.Subcommands {
			nodes = append(nodes, commandNode(s, c.Name+" "+s.Name))
		}
	}
	// help takes a command name.
	for i := range nodes {
		if nodes[i].path == "help" {
			nodes[i].subs = top.subs
		}
	}
	return nodes
}

// globalDocs are the global flags' docs in the scripts.
var globalDocs = map[string]string{
	"api-url": "the API's base URL",
	"auth":    "sigv4 (IAM) or none (make dev)",
	"timeout": "bound on the whole command",
}

func commandNode(c *Command, path string) completionNode {
	n := completionNode{path: path}
	for _, s := range c.Subcommands {
		n.subs = append(n.subs, completionWord{s.Name, s.Summary})
	}
	if c.New == nil {
		return n
	}
	in, _ := newInvocation(Env{}.withDefaults(), cliSettings{}, globals{}, c, path)
	in.Flags.VisitAll(func(f *flag.Flag) {
		_, usage := flag.UnquoteUsage(f)
		isBool := false
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			isBool = true
		}
		n.flags = append(n.flags, completionFlag{name: f.Name, doc: usage, takesValue: !isBool,
			values: flagValues[f.Name], fileValue: fileFlags[f.Name]})
	})
	n.flags = append(n.flags, completionFlag{name: "help", doc: "show the command's flags and examples"})
	return n
}

func (n completionNode) subNames() string {
	var out []string
	for _, w := range n.subs {
		out = append(out, w.name)
	}
	return strings.Join(out, " ")
}

func (n completionNode) flagNames(valued bool) string {
	var out []string
	for _, f := range n.flags {
		if !valued || f.takesValue {
			out = append(out, "--"+f.name)
		}
	}
	return strings.Join(out, " ")
}

// valueChoices maps each flag with fixed choices, or a path, to them
// ("__file__" for a path), over every command.
func valueChoices(t []completionNode) [][2]string {
	seen := map[string]bool{}
	var out [][2]string
	for _, n := range t {
		for _, f := range n.flags {
			if seen[f.name] || (len(f.values) == 0 && !f.fileValue) {
				continue
			}
			seen[f.name] = true
			v := strings.Join(f.values, " ")
			if f.fileValue {
				v = "__file__"
			}
			out = append(out, [2]string{f.name, v})
		}
	}
	slices.SortFunc(out, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	return out
}

// writeCaseFunctions writes the shell functions (valid in bash and zsh)
// that tell, for a command path, the words that may follow, the flags,
// the flags that take a value, and the choices of a flag's value.
func writeCaseFunctions(w io.Writer, t []completionNode) {
	table := func(name, doc string, row func(completionNode) string) {
		fmt.Fprintf(w, "\n# %s\n%s() {\n    case $1 in\n", doc, name)
		for _, n := range t {
			if v := row(n); v != "" {
				fmt.Fprintf(w, "        %q) echo %q ;;\n", n.path, v)
			}
		}
		fmt.Fprintf(w, "    esac\n}\n")
	}
	table("_agentmem_subs", "The commands or subcommands that may follow a command path.", completionNode.subNames)
	table("_agentmem_flags", "The flags of a command path.", func(n completionNode) string { return n.flagNames(false) })
	table("_agentmem_value_flags", "The flags of a command path that take a value.", func(n completionNode) string { return n.flagNames(true) })
	fmt.Fprintf(w, "\n# The choices of a flag's value (__file__: a path).\n_agentmem_values() {\n    case $1 in\n")
	for _, v := range valueChoices(t) {
		fmt.Fprintf(w, "        --%s) echo %q ;;\n", v[0], v[1])
	}
	fmt.Fprintf(w, "    esac\n}\n")
	fmt.Fprint(w, `
# _agentmem_scan sets cmdpath to the command path of words 2..$1-1 of the
# array named by $2 and expect to 1 when the last of them is a flag
# waiting for its value.
_agentmem_scan() {
    local n=$1 i w f subs
    cmdpath="" expect=0
    for ((i = 1; i < n; i++)); do
        eval "w=\${$2[$((i + _agentmem_base))]}"
        if ((expect)); then expect=0; continue; fi
        case $w in
            -*=*) ;;
            -*)
                f=${w#-}; f=--${f#-}
                [[ " $(_agentmem_value_flags "$cmdpath") " == *" $f "* ]] && expect=1 ;;
            *)
                subs=" $(_agentmem_subs "$cmdpath") "
                [[ $subs == *" $w "* ]] && cmdpath=${cmdpath:+$cmdpath }$w ;;
        esac
    done
}
`)
}

const generatedBy = "generated from agentmem's command table by `agentmem completion %s`; regenerate it after an upgrade."

func writeBash(w io.Writer, t []completionNode) {
	fmt.Fprintf(w, "# bash completion of agentmem, "+generatedBy+"\n", "bash")
	fmt.Fprint(w, "# Load it with: source <(agentmem completion bash)\n")
	fmt.Fprint(w, "_agentmem_base=0\n")
	writeCaseFunctions(w, t)
	fmt.Fprint(w, `
_agentmem() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmdpath expect values
    _agentmem_scan "$COMP_CWORD" COMP_WORDS
    if ((expect)); then
        values=${prev#-}
        values=$(_agentmem_values "--${values#-}")
        if [[ $values == __file__ ]]; then
            COMPREPLY=($(compgen -f -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$values" -- "$cur"))
        fi
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_agentmem_flags "$cmdpath")" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$(_agentmem_subs "$cmdpath")" -- "$cur"))
    fi
}
complete -o default -F _agentmem agentmem
`)
}

func writeZsh(w io.Writer, t []completionNode) {
	fmt.Fprint(w, "#compdef agentmem\n")
	fmt.Fprintf(w, "# zsh completion of agentmem, "+generatedBy+"\n", "zsh")
	fmt.Fprint(w, "# Load it with: source <(agentmem completion zsh) (after compinit), or save it as _agentmem in $fpath.\n")
	fmt.Fprint(w, "_agentmem_base=1 # zsh's words start at 1\n")
	writeCaseFunctions(w, t)
	fmt.Fprintf(w, "\n# The commands or subcommands that may follow a command path, with what they do.\n_agentmem_described() {\n    case $1 in\n")
	for _, n := range t {
		if len(n.subs) == 0 {
			continue
		}
		var lines []string
		for _, s := range n.subs {
			lines = append(lines, s.name+":"+strings.ReplaceAll(s.doc, ":", `\:`))
		}
		fmt.Fprintf(w, "        %q) print -rl -- %s ;;\n", n.path, shellQuoteAll(lines))
	}
	fmt.Fprint(w, "    esac\n}\n")
	fmt.Fprint(w, `
_agentmem() {
    local cur=${words[CURRENT]} prev=${words[CURRENT-1]} cmdpath expect values f
    local -a described
    _agentmem_scan "$((CURRENT - 1))" words
    if ((expect)); then
        f=${prev#-}
        values=$(_agentmem_values "--${f#-}")
        if [[ $values == __file__ ]]; then
            _files
        else
            compadd -- ${=values}
        fi
        return
    fi
    if [[ $cur == -* ]]; then
        compadd -- ${=$(_agentmem_flags "$cmdpath")}
        return
    fi
    described=("${(@f)$(_agentmem_described "$cmdpath")}")
    (( ${#described} )) && [[ -n ${described[1]} ]] && _describe -t commands 'agentmem command' described
}

if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
    _agentmem "$@"
else
    compdef _agentmem agentmem
fi
`)
}

// shellQuoteAll quotes each word for a POSIX shell.
func shellQuoteAll(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}

// fishQuote quotes s for fish: single quotes, with \\ and \' escaped.
func fishQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}

func writeFish(w io.Writer, t []completionNode) {
	fmt.Fprintf(w, "# fish completion of agentmem, "+generatedBy+"\n", "fish")
	fmt.Fprint(w, "# Load it with: agentmem completion fish | source\n\n")
	fish := func(name string, row func(completionNode) string) {
		fmt.Fprintf(w, "function %s\n    switch \"$argv[1]\"\n", name)
		for _, n := range t {
			if v := row(n); v != "" {
				fmt.Fprintf(w, "        case %s\n            string split ' ' -- %s\n", fishQuote(n.path), fishQuote(v))
			}
		}
		fmt.Fprint(w, "    end\nend\n\n")
	}
	fish("__agentmem_subs", completionNode.subNames)
	fish("__agentmem_value_flags", func(n completionNode) string { return n.flagNames(true) })
	fmt.Fprint(w, `# The command path of the words before the cursor.
function __agentmem_path
    set -l cmdpath ''
    set -l expect 0
    for w in (commandline -opc)[2..-1]
        if test $expect -eq 1
            set expect 0
            continue
        end
        switch $w
            case '-*=*'
            case '-*'
                set -l f --(string replace -r '^-+' '' -- $w)
                if contains -- $f (__agentmem_value_flags $cmdpath)
                    set expect 1
                end
            case '*'
                if contains -- $w (__agentmem_subs $cmdpath)
                    set cmdpath (string trim -- "$cmdpath $w")
                end
        end
    end
    echo $cmdpath
end

function __agentmem_at
    test (__agentmem_path) = "$argv[1]"
end

complete -c agentmem -f
`)
	for _, n := range t {
		cond := fishQuote("__agentmem_at " + fishQuote(n.path))
		for _, s := range n.subs {
			fmt.Fprintf(w, "complete -c agentmem -n %s -a %s -d %s\n", cond, fishQuote(s.name), fishQuote(firstSentence(s.doc)))
		}
		for _, f := range n.flags {
			line := fmt.Sprintf("complete -c agentmem -n %s -l %s", cond, f.name)
			switch {
			case f.fileValue:
				line += " -r -F"
			case len(f.values) > 0:
				line += " -x -a " + fishQuote(strings.Join(f.values, " "))
			case f.takesValue:
				line += " -x"
			}
			fmt.Fprintf(w, "%s -d %s\n", line, fishQuote(firstSentence(f.doc)))
		}
	}
}

// firstSentence shortens a description for a completion menu.
func firstSentence(s string) string {
	if i := strings.Index(s, " ("); i > 0 {
		s = s[:i]
	}
	if len(s) > 70 {
		s = s[:67] + "..."
	}
	return s
}
