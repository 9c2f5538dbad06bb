package cli

import (
	"fmt"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/settings"
)

// Scope is what a command works on: an agent's memory in a project (or
// only the agent, or only the project, as the command needs).
type Scope struct {
	Agent, Project string
}

// Scope resolves the command's scope, once: --agent and --project, each
// defaulting to AGENTMEM_AGENT and AGENTMEM_PROJECT, or the shorthand
// <project> <agent> (<agent> for a command that needs only an agent) as
// the first positional arguments, which in.Args then no longer holds.
//
// The shorthand and the flags must agree: both given and different is a
// usage error. A shorthand overrides the environment. For a ShorthandFirst
// command (search, add, session, daily add) whose scope the flags and the
// environment already give, the first words are the scope only when they
// repeat it (or, with a Keyword, when the keyword follows them); if just
// one of them matches, the command line is ambiguous and refused.
//
// A missing or invalid agent or project is a usage error naming the flag
// and the environment variable. A ScopeOptional command without any gets
// the zero Scope.
func (in *Invocation) Scope() (Scope, error) {
	if in.scope != nil {
		return *in.scope, nil
	}
	s, rest, err := in.resolveScope()
	if err != nil {
		return Scope{}, err
	}
	in.scope, in.Args = &s, rest
	return s, nil
}

func (in *Invocation) resolveScope() (Scope, []string, error) {
	c := in.Command
	var flags, env Scope
	if c.Needs&NeedsAgent != 0 {
		flags.Agent = in.agentFlag
		if !c.ScopeOptional {
			env.Agent = in.settings.agent
		}
	}
	if c.Needs&NeedsProject != 0 {
		flags.Project = in.projFlag
		if !c.ScopeOptional {
			env.Project = in.settings.project
		}
	}
	def := Scope{Agent: firstNonEmpty(flags.Agent, env.Agent), Project: firstNonEmpty(flags.Project, env.Project)}
	n := c.Needs.words()

	short, err := in.usesShorthand(flags, env, def)
	if err != nil {
		return Scope{}, nil, err
	}
	s, args, source := def, in.Args, sources{flags: flags, env: env}
	if short {
		s, args = in.shorthandScope(), in.Args[n:]
		if err := conflict("agent", flags.Agent, s.Agent); err != nil {
			return Scope{}, nil, err
		}
		if err := conflict("project", flags.Project, s.Project); err != nil {
			return Scope{}, nil, err
		}
		source.short = true
	}
	if c.ScopeOptional && s == (Scope{}) {
		return s, args, nil
	}
	if err := in.checkScope(s, source); err != nil {
		return Scope{}, nil, err
	}
	return s, args, nil
}

// words is how many words the shorthand of a scope takes.
func (n Needs) words() int {
	if n == NeedsAgentProject {
		return 2
	}
	return 1
}

// shorthandScope reads the scope from the first positional arguments:
// <project> <agent>, or <agent> alone.
func (in *Invocation) shorthandScope() Scope {
	switch in.Command.Needs {
	case NeedsAgentProject:
		return Scope{Project: in.Args[0], Agent: in.Args[1]}
	case NeedsAgent:
		return Scope{Agent: in.Args[0]}
	}
	return Scope{Project: in.Args[0]}
}

// shorthandSynopsis is the shorthand's synopsis, e.g. "<project> <agent>".
func (c *Command) shorthandSynopsis() string {
	switch c.Needs {
	case NeedsAgentProject:
		return "<project> <agent>"
	case NeedsAgent:
		return "<agent>"
	}
	return "<project>"
}

// flagSynopsis is the scope's flags in a synopsis, e.g. "--agent NAME --project ID".
func (c *Command) flagSynopsis() string {
	var parts []string
	if c.Needs&NeedsAgent != 0 {
		parts = append(parts, "--agent NAME")
	}
	if c.Needs&NeedsProject != 0 {
		parts = append(parts, "--project ID")
	}
	s := strings.Join(parts, " ")
	if c.ScopeOptional && s != "" {
		s = "[" + s + "]"
	}
	return s
}

// usesShorthand decides whether the first positional arguments are the
// scope.
func (in *Invocation) usesShorthand(flags, env, def Scope) (bool, error) {
	c, args, n := in.Command, in.Args, in.Command.Needs.words()
	switch c.Shorthand {
	case NoShorthand:
		return false, nil
	case ShorthandAlone:
		switch len(args) {
		case 0:
			return false, nil
		case n:
			return true, nil
		}
		return false, Usagef("expected agentmem %s %s, or no arguments with %s; got %d argument%s",
			in.Path, c.shorthandSynopsis(), strings.Trim(c.flagSynopsis(), "[]"), len(args), plural(len(args)))
	}
	if len(args) < n {
		return false, nil
	}
	if c.Keyword != nil {
		if c.Keyword(args[0]) {
			return false, nil
		}
		if len(args) > n && c.Keyword(args[n]) {
			return true, nil
		}
	}
	given := flags != (Scope{})
	if !in.complete(def) {
		// Only the shorthand can complete the scope, unless a flag says
		// that this is the flag form.
		return !given, nil
	}
	head := in.shorthandScope()
	switch {
	case head == def:
		return true, nil // the words repeat the scope
	case !given && n == 2 && (head.Agent == def.Agent || head.Project == def.Project):
		return false, Usagef("%q could be <project> <agent> or the start of the text (AGENTMEM_PROJECT is %s, AGENTMEM_AGENT is %s): give --project and --agent, and the words are all text",
			strings.Join(args[:2], " "), env.Project, env.Agent)
	}
	return false, nil
}

// complete reports whether s has every part the command needs.
func (in *Invocation) complete(s Scope) bool {
	needs := in.Command.Needs
	return (needs&NeedsAgent == 0 || s.Agent != "") && (needs&NeedsProject == 0 || s.Project != "")
}

// conflict is the usage error of a scope part given both as a flag and in
// the shorthand, differently.
func conflict(part, flagValue, shortValue string) error {
	if flagValue == "" || flagValue == shortValue {
		return nil
	}
	return Usagef("--%s %s and the <%s> argument %s differ: give the %s once", part, flagValue, part, shortValue, part)
}

// sources says where a resolved scope came from, for error messages.
type sources struct {
	flags, env Scope
	short      bool
}

// origin names where a part of the scope came from: "--agent",
// "AGENTMEM_AGENT", or "" for the shorthand.
func (s sources) origin(part, flagValue, envValue string) string {
	switch {
	case s.short:
		return ""
	case flagValue != "":
		return "--" + part + ": "
	case envValue != "":
		return "AGENTMEM_" + strings.ToUpper(part) + ": "
	}
	return ""
}

// checkScope fails with a usage error when a part the command needs is
// missing or invalid.
func (in *Invocation) checkScope(s Scope, src sources) error {
	c := in.Command
	var missing, vars []string
	if c.Needs&NeedsAgent != 0 && s.Agent == "" {
		missing, vars = append(missing, "--agent"), append(vars, settings.Agent.Name)
	}
	if c.Needs&NeedsProject != 0 && s.Project == "" {
		missing, vars = append(missing, "--project"), append(vars, settings.Project.Name)
	}
	if len(missing) > 0 {
		verb := "is"
		if len(missing) > 1 {
			verb = "are"
		}
		if c.ScopeOptional {
			return Usagef("agentmem %s takes both --agent and --project (one scope), or neither (every scope)", in.Path)
		}
		msg := fmt.Sprintf("%s %s required (or %s", strings.Join(missing, " and "), verb, strings.Join(vars, " and "))
		if c.Shorthand != NoShorthand {
			msg += fmt.Sprintf(", or the shorthand agentmem %s %s", in.Path, c.shorthandSynopsis())
			if c.Args != "" {
				msg += " " + c.Args
			}
		}
		return Usagef("%s)", msg)
	}
	if c.Needs&NeedsAgent != 0 {
		if err := agentmem.ValidateAgentName(s.Agent); err != nil {
			return Usagef("%s%s", src.origin("agent", src.flags.Agent, src.env.Agent), agentmem.ErrorMessage(err))
		}
	}
	if c.Needs&NeedsProject != 0 {
		if err := agentmem.ValidateProjectID(s.Project); err != nil {
			return Usagef("%s%s", src.origin("project", src.flags.Project, src.env.Project), agentmem.ErrorMessage(err))
		}
	}
	return nil
}
