// Package mcpserver serves agentmem's memory tools to an agent mid-run over
// the Model Context Protocol (github.com/modelcontextprotocol/go-sdk): seed
// 003's go_ent_memory_* tools as memory_store, memory_recall,
// memory_search, memory_forget, memory_stats and memory_suggest_patterns,
// and memory_update, memory_history and memory_restore, which correct a
// memory in place and read or restore its versions.
// Every tool calls the agentmem API through package apiclient, for one
// agent in one project (and, for the session scope, one session), fixed
// when the server is built.
//
// Tool failures are tool results with IsError set, never protocol errors,
// and their text tells the agent what to do next: fix an argument, work
// without the key, go on without memory while the API is unreachable.
package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"reflect"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/strictjson"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool names (seed 003's go_ent_memory_* without the prefix).
const (
	ToolStore           = "memory_store"
	ToolRecall          = "memory_recall"
	ToolSearch          = "memory_search"
	ToolForget          = "memory_forget"
	ToolStats           = "memory_stats"
	ToolSuggestPatterns = "memory_suggest_patterns"
)

// Tools lists the tool names in the order the server registers them.
var Tools = []string{ToolStore, ToolRecall, ToolSearch, ToolForget, ToolStats, ToolSuggestPatterns, ToolUpdate, ToolHistory, ToolRestore}

// DefaultCallTimeout bounds one tool call when Config.CallTimeout is zero;
// it matches API Gateway's 30 s integration limit.
const DefaultCallTimeout = 30 * time.Second

// Config says whose memory the server serves.
type Config struct {
	// Agent and Project select the long-term memory scope (required).
	Agent, Project string
	// Session is the session id of the session scope (memory_store scope
	// "session", memory_recall); empty disables those calls with an
	// explanation. Project memories stored through the server record it as
	// their runId.
	Session string
	// CallTimeout bounds each tool call (DefaultCallTimeout when zero).
	CallTimeout time.Duration
	// Log receives one line per tool error (warn) and per call (debug);
	// nil discards. Never standard output: that is the protocol.
	Log *slog.Logger
	// Version is reported to clients in the initialize handshake.
	Version string
}

// Validate checks the agent, project and session names.
func (c Config) Validate() error {
	if err := agentmem.ValidateAgentName(c.Agent); err != nil {
		return fmt.Errorf("agent: %s", agentmem.ErrorMessage(err))
	}
	if err := agentmem.ValidateProjectID(c.Project); err != nil {
		return fmt.Errorf("project: %s", agentmem.ErrorMessage(err))
	}
	if c.Session != "" {
		if err := agentmem.ValidateSessionID(c.Session); err != nil {
			return fmt.Errorf("session: %s", agentmem.ErrorMessage(err))
		}
	}
	return nil
}

// server holds what every tool handler needs.
type server struct {
	api *apiclient.Client
	cfg Config
	log *slog.Logger
}

// New returns an MCP server with the memory tools (Tools), calling the API
// through api. Serve it with (*mcp.Server).Run, e.g. over
// &mcp.StdioTransport{}.
func New(api *apiclient.Client, cfg Config) (*mcp.Server, error) {
	if api == nil {
		return nil, errors.New("mcpserver: no API client")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = DefaultCallTimeout
	}
	if cfg.Version == "" {
		cfg.Version = apiclient.Version()
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &server{api: api, cfg: cfg, log: log}
	srv := mcp.NewServer(&mcp.Implementation{Name: "agentmem", Title: "agentmem memory", Version: cfg.Version}, &mcp.ServerOptions{
		Instructions: s.instructions(),
		// The SDK logs every session start and end at info; keep its
		// warnings and errors only.
		Logger:       slog.New(&minLevel{Handler: log.Handler(), min: slog.LevelWarn}),
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	s.addTools(srv)
	srv.AddReceivingMiddleware(s.middleware)
	return srv, nil
}

// instructions is what the server tells the client about itself.
func (s *server) instructions() string {
	session := "no session is configured, so the session scope is unavailable"
	if s.cfg.Session != "" {
		session = fmt.Sprintf("the session scope is session %s of the project, shared by the agents of this pipeline run", s.cfg.Session)
	}
	return fmt.Sprintf("agentmem: long-term memory of agent %s in project %s; %s. "+
		"At the start of a task call memory_suggest_patterns with the task and memory_search for what is known about it; "+
		"store decisions, findings and blockers worth keeping with memory_store scope project, "+
		"correct one that is out of date with memory_update, "+
		"and hand-over notes for the next step with scope session.", s.cfg.Agent, s.cfg.Project, session)
}

// toolInputs are the tools' argument types, for strictjson.Check.
var toolInputs = map[string]reflect.Type{
	ToolStore: reflect.TypeFor[StoreInput](), ToolRecall: reflect.TypeFor[RecallInput](), ToolSearch: reflect.TypeFor[SearchInput](),
	ToolForget: reflect.TypeFor[ForgetInput](), ToolStats: reflect.TypeFor[StatsInput](), ToolSuggestPatterns: reflect.TypeFor[SuggestInput](),
	ToolUpdate: reflect.TypeFor[UpdateInput](), ToolHistory: reflect.TypeFor[HistoryInput](), ToolRestore: reflect.TypeFor[RestoreInput](),
}

// middleware guards and logs each tool call: it reads "arguments": null
// as no arguments (the SDK v1.8.0 panics applying schema defaults to it),
// refuses arguments that encoding/json would read by guessing (a key
// twice, a lone surrogate escape: strictjson, the API's rule),
// turns a panic into a tool error instead of a dead server, and rewrites
// the SDK's own argument errors (schema validation, before a handler runs)
// into a message that names the tool and says what to do.
func (s *server) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		call, ok := req.(*mcp.CallToolRequest)
		if !ok || call.Params == nil {
			return next(ctx, method, req)
		}
		name := call.Params.Name
		if bytes.Equal(bytes.TrimSpace(call.Params.Arguments), []byte("null")) {
			call.Params.Arguments = nil
		}
		if in, known := toolInputs[name]; known && len(call.Params.Arguments) > 0 {
			if err := strictjson.Check(call.Params.Arguments, in, "the arguments object"); err != nil {
				te := invalidf(name, "%s", agentmem.ErrorMessage(err))
				s.log.WarnContext(ctx, "tool error", "tool", name, "err", te.Error())
				r := &mcp.CallToolResult{}
				r.SetError(te)
				return r, nil
			}
		}
		start := time.Now()
		defer func() {
			if p := recover(); p != nil {
				s.log.ErrorContext(ctx, "tool call panicked", "tool", name, "panic", p, "stack", string(debug.Stack()))
				r := &mcp.CallToolResult{}
				r.SetError(&toolError{msg: name + ": internal error in the agentmem MCP server (it is logged). Go on with the task without memory."})
				res, err = r, nil
			}
		}()
		res, err = next(ctx, method, req)
		took := time.Since(start).Round(time.Millisecond)
		r, _ := res.(*mcp.CallToolResult)
		switch {
		case err != nil:
			s.log.WarnContext(ctx, "tool call failed", "tool", name, "took", took, "err", err)
		case r != nil && r.IsError:
			var te *toolError
			if !errors.As(r.GetError(), &te) {
				te = badArguments(name, r.GetError())
				r.Content = []mcp.Content{&mcp.TextContent{Text: te.Error()}}
			}
			s.log.WarnContext(ctx, "tool error", "tool", name, "took", took, "err", te.Error(), "cause", te.cause)
		default:
			s.log.DebugContext(ctx, "tool call", "tool", name, "took", took)
		}
		return res, err
	}
}

// toolError is a tool failure as the agent reads it.
type toolError struct {
	msg   string
	cause error // for the log; may be nil
}

// Error implements error.
func (e *toolError) Error() string { return e.msg }

// Unwrap returns the cause.
func (e *toolError) Unwrap() error { return e.cause }

// invalidf is a bad argument that the handler found.
func invalidf(tool, format string, args ...any) *toolError {
	return &toolError{msg: fmt.Sprintf("%s: invalid arguments: %s. Fix them and call %s again.", tool, fmt.Sprintf(format, args...), tool)}
}

var (
	schemaPrefix = regexp.MustCompile(`validating "arguments": |validating root: `)
	schemaPath   = regexp.MustCompile(`(?:validating /properties/[^\s:]+: )+`)
	schemaRat    = regexp.MustCompile(`((?:minimum|maximum|exclusiveMinimum|exclusiveMaximum): )(-?\d+/\d+)`)
	schemaFloat  = regexp.MustCompile(`\b\d+\.\d+\b`)
	schemaQuote  = regexp.MustCompile(`"(?:[^"\\]|\\.){61,}"`)
)

// maxQuoted is how many characters of a long value an argument error
// quotes: the agent wrote the value, an error echoing it whole (up to the
// line limit) would only fill its context.
const maxQuoted = 40

// cleanSchemaError rewords a jsonschema validation error for the agent:
// "validating root: validating /properties/limit: maximum: 100/1 is
// greater than 50.000000" becomes "limit: maximum: 100 is greater than 50";
// a null value reads null, and a long value is quoted by its start.
func cleanSchemaError(msg string) string {
	msg = strings.Join(strings.Fields(msg), " ")
	msg = schemaPrefix.ReplaceAllString(msg, "")
	msg = schemaPath.ReplaceAllStringFunc(msg, func(m string) string {
		// Nested properties repeat the path; the last one is the deepest.
		chain := strings.Split(strings.TrimSuffix(m, ": "), ": ")
		path := strings.TrimPrefix(chain[len(chain)-1], "validating /properties/")
		path = strings.ReplaceAll(path, "/properties/", ".")
		path = strings.ReplaceAll(path, "/items", " items")
		return path + ": "
	})
	msg = schemaRat.ReplaceAllStringFunc(msg, func(m string) string {
		parts := schemaRat.FindStringSubmatch(m)
		r, ok := new(big.Rat).SetString(parts[2])
		if !ok {
			return m
		}
		f, _ := r.Float64()
		return parts[1] + strconv.FormatFloat(f, 'g', -1, 64)
	})
	// The validator prints a null value as Go's reflect does.
	msg = strings.ReplaceAll(msg, "<invalid reflect.Value>", "null")
	msg = schemaQuote.ReplaceAllStringFunc(msg, func(q string) string {
		r := []rune(q[1 : len(q)-1])
		return `"` + strings.TrimSuffix(string(r[:min(len(r), maxQuoted)]), `\`) + `…"`
	})
	// 50.000000 reads 50, 0.500000 reads 0.5; integers stay as they are.
	return schemaFloat.ReplaceAllStringFunc(msg, func(m string) string {
		f, err := strconv.ParseFloat(m, 64)
		if err != nil {
			return m
		}
		return strconv.FormatFloat(f, 'g', -1, 64)
	})
}

// badArguments turns an argument error of the SDK (the arguments do not
// match the input schema, or do not decode) into a tool error.
func badArguments(tool string, err error) *toolError {
	msg := "the arguments do not match the input schema"
	if err != nil {
		msg = cleanSchemaError(err.Error())
	}
	return &toolError{
		msg:   fmt.Sprintf("%s: invalid arguments: %s. Call %s again with arguments that match its input schema.", tool, msg, tool),
		cause: err,
	}
}

// apiFailure turns a failed API call into a tool error that says what the
// agent can do about it.
func (s *server) apiFailure(tool string, err error) *toolError {
	var te *toolError
	if errors.As(err, &te) {
		return te
	}
	var apiErr *apiclient.Error
	var transport *apiclient.TransportError
	var msg string
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		msg = fmt.Sprintf("the agentmem API did not answer within %s, so memory is not available right now. Go on with the task without it; try once more later if you need it.", s.cfg.CallTimeout)
	case errors.As(err, &transport):
		msg = fmt.Sprintf("cannot reach the agentmem API (%s), so memory is not available right now. Go on with the task without it; do not retry in a loop.", transport.Error())
	case errors.As(err, &apiErr):
		switch apiErr.Err.Code {
		case agentmem.EInvalid, agentmem.ETooLarge:
			msg = fmt.Sprintf("the agentmem API refused the arguments: %s. Fix them and call %s again.", apiErr.Err.Message, tool)
		case agentmem.ENotFound:
			msg = fmt.Sprintf("not found: %s.", apiErr.Err.Message)
		case apiclient.CodeForbidden, apiclient.CodeUnauthorized:
			msg = fmt.Sprintf("the agentmem API refused this server's credentials (%s): a configuration problem for the operator, not something to retry. Go on with the task without memory.", apiErr.Err.Message)
		case apiclient.CodeThrottled, apiclient.CodeUnavailable, agentmem.EBusy, agentmem.EConflict:
			msg = fmt.Sprintf("the agentmem API is busy or unavailable (%d %s: %s). Try once more in a moment, else go on without memory.", apiErr.Status, apiErr.Err.Code, apiErr.Err.Message)
		default:
			msg = fmt.Sprintf("the agentmem API failed (%d %s: %s). Try once more, else go on with the task without memory.", apiErr.Status, apiErr.Err.Code, apiErr.Err.Message)
		}
	default:
		msg = fmt.Sprintf("the call failed: %v. Go on with the task without memory.", err)
	}
	return &toolError{msg: tool + ": " + msg, cause: err}
}

// minLevel drops records below min.
type minLevel struct {
	slog.Handler
	min slog.Level
}

// Enabled implements slog.Handler.
func (h *minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

// WithAttrs implements slog.Handler.
func (h *minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &minLevel{Handler: h.Handler.WithAttrs(attrs), min: h.min}
}

// WithGroup implements slog.Handler.
func (h *minLevel) WithGroup(name string) slog.Handler {
	return &minLevel{Handler: h.Handler.WithGroup(name), min: h.min}
}

var _ slog.Handler = (*minLevel)(nil)
