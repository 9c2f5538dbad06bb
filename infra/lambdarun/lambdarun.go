// Package lambdarun runs a Lambda bootstrap binary the way Lambda runs it:
// as a child process that polls the Lambda Runtime API (version
// 2018-06-01) for events and posts back responses or errors. The Runtime
// API is served here by a small local stand-in, so tests and benchmarks can
// feed events to the packaged artefact without SAM, Docker or AWS.
//
// Implemented endpoints, as documented by AWS:
//
//	GET  /2018-06-01/runtime/invocation/next
//	POST /2018-06-01/runtime/invocation/{requestId}/response
//	POST /2018-06-01/runtime/invocation/{requestId}/error
//	POST /2018-06-01/runtime/init/error
package lambdarun

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentmem/agentmem/shared/settings"
)

// APIVersion is the Runtime API version the stand-in serves.
const APIVersion = "2018-06-01"

// maxPayload is Lambda's synchronous invocation payload limit.
const maxPayload = 6 << 20

// Options configure a function process.
type Options struct {
	// Binary is the bootstrap executable.
	Binary string
	// Env is the function's environment (KEY=VALUE), added to the
	// variables Lambda itself sets (AWS_LAMBDA_RUNTIME_API and friends).
	Env []string
	// FunctionName is reported as AWS_LAMBDA_FUNCTION_NAME (default
	// "function").
	FunctionName string
	// Timeout is the deadline given to each invocation (default 30 s).
	Timeout time.Duration
}

// FunctionError is what the function posted to .../error (or
// /init/error): Lambda's error document.
type FunctionError struct {
	Type       string   `json:"errorType"`
	Message    string   `json:"errorMessage"`
	StackTrace []string `json:"stackTrace,omitempty"`
}

func (e *FunctionError) Error() string { return e.Type + ": " + e.Message }

// Result is the outcome of one invocation: the response payload, or the
// function's error.
type Result struct {
	Payload []byte
	Err     *FunctionError
}

// Runtime is a running function process and its Runtime API stand-in.
type Runtime struct {
	opts    Options
	ln      net.Listener
	srv     *http.Server
	cmd     *exec.Cmd
	started time.Time
	exited  chan struct{}
	exitErr error
	logs    *syncBuffer

	next chan *invocation // handed to the next GET .../next

	mu        sync.Mutex
	inflight  map[string]*invocation
	seq       int
	initError *FunctionError
}

type invocation struct {
	id      string
	payload []byte
	done    chan Result
}

// Start serves the Runtime API on a free loopback port and starts the
// binary pointed at it. The process initializes and then waits in
// .../invocation/next for Invoke.
func Start(opts Options) (*Runtime, error) {
	if opts.FunctionName == "" {
		opts.FunctionName = "function"
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen for the runtime API: %w", err)
	}
	r := &Runtime{
		opts:     opts,
		ln:       ln,
		exited:   make(chan struct{}),
		logs:     &syncBuffer{},
		next:     make(chan *invocation),
		inflight: map[string]*invocation{},
	}
	r.srv = &http.Server{Handler: r.routes(), ReadHeaderTimeout: 10 * time.Second}
	go r.srv.Serve(ln)

	r.cmd = exec.Command(opts.Binary)
	r.cmd.Env = append([]string{
		"AWS_LAMBDA_RUNTIME_API=" + ln.Addr().String(),
		settings.LambdaFunctionName.Name + "=" + opts.FunctionName,
		"AWS_LAMBDA_FUNCTION_VERSION=$LATEST",
		"AWS_LAMBDA_FUNCTION_MEMORY_SIZE=512",
		"_HANDLER=bootstrap",
		"TZ=:UTC",
	}, opts.Env...)
	r.cmd.Stdout, r.cmd.Stderr = r.logs, r.logs
	r.started = time.Now()
	if err := r.cmd.Start(); err != nil {
		r.srv.Close()
		return nil, fmt.Errorf("start %s: %w", opts.Binary, err)
	}
	go func() {
		r.exitErr = r.cmd.Wait()
		close(r.exited)
	}()
	return r, nil
}

// Started is when the process was started (for start-up timings).
func (r *Runtime) Started() time.Time { return r.started }

// Logs returns what the process wrote to stdout and stderr so far.
func (r *Runtime) Logs() string { return r.logs.String() }

// Invoke sends one event and waits for the function's response or error.
// It fails when the process reported an init error or exited, or when ctx
// ends first.
func (r *Runtime) Invoke(ctx context.Context, payload []byte) (Result, error) {
	r.mu.Lock()
	r.seq++
	inv := &invocation{id: "req-" + strconv.Itoa(r.seq), payload: payload, done: make(chan Result, 1)}
	initErr := r.initError
	r.mu.Unlock()
	if initErr != nil {
		return Result{}, fmt.Errorf("function failed to initialize: %w", initErr)
	}
	select {
	case r.next <- inv:
	case <-r.exited:
		return Result{}, r.exitError()
	case <-ctx.Done():
		return Result{}, fmt.Errorf("waiting for the function to ask for an event: %w", ctx.Err())
	}
	select {
	case res := <-inv.done:
		return res, nil
	case <-r.exited:
		return Result{}, r.exitError()
	case <-ctx.Done():
		return Result{}, fmt.Errorf("waiting for the function's response to %s: %w", inv.id, ctx.Err())
	}
}

func (r *Runtime) exitError() error {
	r.mu.Lock()
	initErr := r.initError
	r.mu.Unlock()
	if initErr != nil {
		return fmt.Errorf("function failed to initialize: %w", initErr)
	}
	return fmt.Errorf("function process exited: %v", r.exitErr)
}

// Close stops the process and the stand-in.
func (r *Runtime) Close() error {
	select {
	case <-r.exited:
	default:
		r.cmd.Process.Kill()
		<-r.exited
	}
	return r.srv.Close()
}

func (r *Runtime) routes() http.Handler {
	mux := http.NewServeMux()
	base := "/" + APIVersion + "/runtime"
	mux.HandleFunc("GET "+base+"/invocation/next", r.handleNext)
	mux.HandleFunc("POST "+base+"/invocation/{id}/response", r.handleResponse)
	mux.HandleFunc("POST "+base+"/invocation/{id}/error", r.handleError)
	mux.HandleFunc("POST "+base+"/init/error", r.handleInitError)
	return mux
}

// handleNext blocks until Invoke hands over an event, as Lambda's does
// between invocations.
func (r *Runtime) handleNext(w http.ResponseWriter, req *http.Request) {
	var inv *invocation
	select {
	case inv = <-r.next:
	case <-req.Context().Done():
		return
	}
	r.mu.Lock()
	r.inflight[inv.id] = inv
	r.mu.Unlock()
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Lambda-Runtime-Aws-Request-Id", inv.id)
	h.Set("Lambda-Runtime-Deadline-Ms", strconv.FormatInt(time.Now().Add(r.opts.Timeout).UnixMilli(), 10))
	h.Set("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:us-east-1:000000000000:function:"+r.opts.FunctionName)
	h.Set("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000;Sampled=0")
	w.WriteHeader(http.StatusOK)
	w.Write(inv.payload)
}

func (r *Runtime) take(w http.ResponseWriter, req *http.Request) (*invocation, []byte, bool) {
	id := req.PathValue("id")
	body, err := io.ReadAll(io.LimitReader(req.Body, maxPayload+1))
	if err != nil || len(body) > maxPayload {
		writeStatus(w, http.StatusRequestEntityTooLarge, "RequestTooLarge", "payload over 6 MB or unreadable")
		return nil, nil, false
	}
	r.mu.Lock()
	inv := r.inflight[id]
	delete(r.inflight, id)
	r.mu.Unlock()
	if inv == nil {
		writeStatus(w, http.StatusBadRequest, "InvalidRequestID", "no invocation "+id+" is in flight")
		return nil, nil, false
	}
	return inv, body, true
}

func (r *Runtime) handleResponse(w http.ResponseWriter, req *http.Request) {
	inv, body, ok := r.take(w, req)
	if !ok {
		return
	}
	inv.done <- Result{Payload: body}
	writeStatus(w, http.StatusAccepted, "", "")
}

func (r *Runtime) handleError(w http.ResponseWriter, req *http.Request) {
	inv, body, ok := r.take(w, req)
	if !ok {
		return
	}
	inv.done <- Result{Err: parseError(body, req.Header.Get("Lambda-Runtime-Function-Error-Type"))}
	writeStatus(w, http.StatusAccepted, "", "")
}

func (r *Runtime) handleInitError(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(req.Body, maxPayload))
	r.mu.Lock()
	r.initError = parseError(body, req.Header.Get("Lambda-Runtime-Function-Error-Type"))
	r.mu.Unlock()
	writeStatus(w, http.StatusAccepted, "", "")
}

// parseError reads Lambda's error document; a body that is not one is
// kept as the message.
func parseError(body []byte, typeHeader string) *FunctionError {
	var fe FunctionError
	if err := json.Unmarshal(body, &fe); err != nil || (fe.Type == "" && fe.Message == "") {
		fe = FunctionError{Message: strings.TrimSpace(string(body))}
	}
	if fe.Type == "" {
		fe.Type = typeHeader
	}
	if fe.Type == "" {
		fe.Type = "Unhandled"
	}
	return &fe
}

// writeStatus answers as the Runtime API does: {"status":"OK"} on success,
// {"errorType","errorMessage"} otherwise.
func writeStatus(w http.ResponseWriter, code int, errType, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	if errType == "" {
		io.WriteString(w, `{"status":"OK"}`)
		return
	}
	json.NewEncoder(w).Encode(map[string]string{"errorType": errType, "errorMessage": msg})
}

// syncBuffer is a bytes.Buffer safe for the process's two pipes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
