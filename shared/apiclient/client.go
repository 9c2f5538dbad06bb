// Package apiclient is a typed Go client of the agentmem REST API. It signs
// every request with AWS Signature Version 4 for service execute-api (the
// API's IAM authorization) using the default AWS credential chain, or sends
// requests unsigned for a local dev server (AGENTMEM_AUTH=none). Error
// responses (agentmem.ErrorEnvelope, {"error":{"code","message"}}) come
// back as *Error, which carries the HTTP status and the answer's domain
// error (*agentmem.Error, also reached by errors.As and agentmem.ErrorCode).
//
// The client has one method per route, grouped by resource in files
// (memories.go, personalities.go, extractions.go, daily.go, sessions.go,
// dreams.go, search.go, lifecycle.go). Request and response bodies are the
// domain package's wire types (agentmem.Stats, agentmem.SearchResult, ...),
// the very types the handlers encode. Forward (forward.go) relays a
// request as a caller made it, signed the same way (agentmem console). To
// add a route's method,
// add a file with a method that calls c.Do, e.g.
//
//	func (c *Client) GetStats(ctx context.Context, agent, project string) (Stats, error) {
//		var out Stats
//		err := c.Do(ctx, Call{Method: "GET", Path: AgentPath(agent, "stats"),
//			Query: url.Values{"projectId": {project}}}, &out)
//		return out, err
//	}
package apiclient

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/awsconfig"
	"github.com/agentmem/agentmem/shared/backoff"
	"github.com/agentmem/agentmem/shared/settings"
)

// Authentication modes (AGENTMEM_AUTH).
const (
	AuthSigV4 = "sigv4" // sign with SigV4 from the default credential chain (the default)
	AuthNone  = "none"  // send requests unsigned (make dev)
)

// Config says where the API is and how to reach it.
type Config struct {
	// URL is the API's base URL, e.g. https://abc123.execute-api.eu-west-1.amazonaws.com
	// or http://127.0.0.1:3000. A path prefix (a stage) is kept.
	URL string
	// Auth is AuthSigV4 (also when empty) or AuthNone.
	Auth string
	// Region is the SigV4 signing region. Empty: derived from an
	// execute-api host name, else from AWS_REGION or the AWS config.
	Region string
	// HTTPClient sends the requests; nil means a client with sensible
	// transport timeouts. Deadlines come from the caller's context.
	HTTPClient *http.Client
	// UserAgent is sent with every request; empty means "agentmem-go/<version>".
	UserAgent string
}

// Client calls the agentmem API. It is safe for concurrent use.
type Client struct {
	base      *url.URL
	http      *http.Client
	auth      Authorizer
	userAgent string
	// retry is the policy of idempotent calls (Retry).
	retry backoff.Policy
}

// Retry is the client's retry policy: an idempotent call that failed for
// a reason that may pass is made once more, after 75-150 ms or the API's
// Retry-After up to a second, when the context leaves time for it. Calls
// that create (a memory, a daily record, a personality) are idempotent:
// the client sends an idempotency key with them (agentmem.IdempotencyKey),
// the same on every attempt of one call.
var Retry = backoff.Policy{Attempts: 2, Base: 150 * time.Millisecond, Max: time.Second}

// ThrottleRetry is the policy of a call the API throttled (429): API
// Gateway refused it before anything ran, so any call is made again, up to
// five more times, waiting the API's Retry-After (up to two seconds) or
// 50 ms doubling, while the context's deadline leaves time for it: a
// throttled `agentmem inject` waits for its memory within its budget
// rather than going on without it.
var ThrottleRetry = backoff.Policy{Attempts: 6, Base: 100 * time.Millisecond, Max: 2 * time.Second}

// New returns a client for cfg. With SigV4 it uses the process's AWS
// configuration (awsconfig.Load: environment, shared files, ECS task role,
// instance role); credentials are fetched lazily on the first request and
// cached.
func New(ctx context.Context, cfg Config) (*Client, error) {
	base, err := parseBaseURL(cfg.URL)
	if err != nil {
		return nil, err
	}
	var auth Authorizer
	switch cfg.Auth {
	case AuthNone:
		auth = NoAuth{}
	case "", AuthSigV4:
		awsCfg, err := awsconfig.Load(ctx)
		if err != nil {
			return nil, err
		}
		if auth, err = NewSigV4(awsCfg, base.Hostname(), cfg.Region); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%s is %q; use %q (IAM, the default) or %q (local dev server)", settings.Auth, cfg.Auth, AuthSigV4, AuthNone)
	}
	return NewWithAuth(cfg, base, auth), nil
}

// NewWithAuth returns a client for base that authorizes requests with auth.
func NewWithAuth(cfg Config, base *url.URL, auth Authorizer) *Client {
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Transport: DefaultTransport}
	}
	ua := cfg.UserAgent
	if ua == "" {
		ua = "agentmem-go/" + Version()
	}
	return &Client{base: base, http: hc, auth: auth, userAgent: ua, retry: Retry}
}

// DefaultTransport is the transport of a client whose Config has no
// HTTPClient: connection set-up is bounded, whole-call deadlines come from
// the context. A caller wrapping the transport (the CLI's "still waiting"
// notice) wraps this one.
var DefaultTransport http.RoundTripper = &http.Transport{
	Proxy:                 http.ProxyFromEnvironment,
	MaxIdleConnsPerHost:   4,
	IdleConnTimeout:       30 * time.Second,
	TLSHandshakeTimeout:   5 * time.Second,
	ResponseHeaderTimeout: 60 * time.Second,
	ForceAttemptHTTP2:     true,
}

// Version is the module version the binary was built from, or "dev".
func Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

func parseBaseURL(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, fmt.Errorf("%s is not set (e.g. https://<api-id>.execute-api.<region>.amazonaws.com, or http://127.0.0.1:3000 for make dev)", settings.APIURL)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s %q is not an http(s) URL", settings.APIURL, raw)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("%s %q must not have a query or fragment", settings.APIURL, raw)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// Call is one API request.
type Call struct {
	Method string
	// Path is the route's path with parameters filled in and escaped
	// (see AgentPath).
	Path  string
	Query url.Values
	// Body is encoded as JSON when not nil.
	Body any
	// Idempotent marks a POST that may be retried (e.g. an extraction,
	// idempotent per runId). GET, PUT and DELETE always may be.
	Idempotent bool
	// Accept is the media type asked for; empty means application/json.
	// Routes that render Markdown answer text/markdown when asked.
	Accept string
	// IdempotencyKey, when set, is sent as agentmem.IdempotencyHeader, the
	// same on every attempt of the call.
	IdempotencyKey string
}

// NewIdempotencyKey returns a fresh idempotency key: 32 random hex digits.
func NewIdempotencyKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// keyFor returns the idempotency key of one logical call: the caller's
// clientToken when it set one, else a fresh key.
func keyFor(clientToken string) string {
	if clientToken != "" {
		return clientToken
	}
	return NewIdempotencyKey()
}

// AgentPath returns /api/agents/{agent}/{rest...} with every segment
// escaped.
func AgentPath(agent string, rest ...string) string {
	var b strings.Builder
	b.WriteString("/api/agents/")
	b.WriteString(url.PathEscape(agent))
	for _, s := range rest {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(s))
	}
	return b.String()
}

// maxResponseBytes bounds what the client reads of one response.
const maxResponseBytes = 16 << 20

// Response is a raw API response, for routes that do not answer JSON.
type Response struct {
	Method string
	Path   string
	Status int
	Header http.Header
	Body   []byte
}

// Do sends call and decodes a JSON answer into out (unless out is nil or
// the status is 204). A non-2xx answer is returned as *Error.
func (c *Client) Do(ctx context.Context, call Call, out any) error {
	resp, err := c.DoRaw(ctx, call)
	if err != nil {
		return err
	}
	if out == nil || resp.Status == http.StatusNoContent {
		return nil
	}
	return decodeJSON(resp, out)
}

func decodeJSON(resp *Response, out any) error {
	if err := json.Unmarshal(resp.Body, out); err != nil {
		return fmt.Errorf("%s %s: decode %d answer: %w", resp.Method, resp.Path, resp.Status, err)
	}
	return nil
}

// DoRaw sends call and returns the answer undecoded. A non-2xx answer is
// returned as *Error; a body holding a string that is not UTF-8 is not
// sent (agentmem.EInvalid). A throttled call (429) is made again (ThrottleRetry);
// an idempotent one once more (Retry) after a transport failure or a
// 502/503/504; either only when the context leaves time for it. A DELETE
// made again that finds nothing to delete answers 204: the attempt whose
// answer was lost deleted it.
func (c *Client) DoRaw(ctx context.Context, call Call) (*Response, error) {
	var body []byte
	if call.Body != nil {
		if at := notUTF8(reflect.ValueOf(call.Body), ""); at != "" {
			return nil, agentmem.Errorf(agentmem.EInvalid, "%s %s: %s is not UTF-8 text; nothing was sent", call.Method, call.Path, at)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(call.Body); err != nil {
			return nil, fmt.Errorf("%s %s: encode body: %w", call.Method, call.Path, err)
		}
		body = bytes.TrimRight(buf.Bytes(), "\n")
	}
	idempotent := call.Idempotent || call.IdempotencyKey != "" ||
		call.Method == http.MethodGet || call.Method == http.MethodPut || call.Method == http.MethodDelete
	var (
		resp                *Response
		err                 error
		throttles, failures int
	)
	for {
		resp, err = c.send(ctx, call, body)
		if err == nil {
			return resp, nil
		}
		if failures > 0 && call.Method == http.MethodDelete && resp != nil && resp.Status == http.StatusNotFound {
			// An attempt whose answer was lost deleted it: the call
			// did what it was asked.
			return &Response{Method: resp.Method, Path: resp.Path, Status: http.StatusNoContent, Header: resp.Header}, nil
		}
		throttled, retry, after := classify(ctx, resp, err)
		switch {
		case throttled:
			throttles++
			if throttles >= ThrottleRetry.Attempts || !ThrottleRetry.Wait(ctx, throttles, after) {
				return resp, err
			}
		case retry && idempotent:
			failures++
			if failures >= c.retry.Attempts || !c.retry.Wait(ctx, failures, after) {
				return resp, err
			}
		default:
			return resp, err
		}
	}
}

// classify tells how a failed call may be retried: throttled for a 429
// (any call, ThrottleRetry), retry for a 502, 503 or 504 answer or a
// transport failure (idempotent calls, Retry), with the answer's
// Retry-After; a canceled or expired context never is.
func classify(ctx context.Context, resp *Response, err error) (throttled, retry bool, after time.Duration) {
	var apiErr *Error
	switch {
	case ctx.Err() != nil:
		return false, false, 0
	case errors.As(err, &apiErr):
		if resp != nil {
			after = backoff.RetryAfter(resp.Header)
		}
		switch apiErr.Status {
		case http.StatusTooManyRequests:
			return true, false, after
		case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return false, true, after
		}
		return false, false, 0
	case err != nil:
		// Transport failures; a canceled or expired context is not retried.
		return false, !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded), 0
	}
	return false, false, 0
}

func (c *Client) send(ctx context.Context, call Call, body []byte) (*Response, error) {
	var query string
	if len(call.Query) > 0 {
		query = call.Query.Encode()
	}
	req, err := c.newRequest(ctx, call.Method, call.Path, query, body)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	accept := call.Accept
	if accept == "" {
		accept = "application/json"
	}
	req.Header.Set("Accept", accept)
	if call.IdempotencyKey != "" {
		req.Header.Set(agentmem.IdempotencyHeader, call.IdempotencyKey)
	}
	resp, err := c.authorizeAndSend(ctx, req, call.Method, call.Path, body)
	if err != nil {
		return nil, err
	}
	if resp.Status < 200 || resp.Status > 299 {
		return resp, decodeError(call, resp)
	}
	return resp, nil
}

// newRequest builds a request for path (escaped, under the base URL's
// path) and rawQuery (encoded) carrying body (nil for none).
func (c *Client) newRequest(ctx context.Context, method, path, rawQuery string, body []byte) (*http.Request, error) {
	u := *c.base
	unescaped, err := url.PathUnescape(path)
	if err != nil {
		return nil, fmt.Errorf("%s %s: bad path: %w", method, path, err)
	}
	u.Path = c.base.Path + unescaped
	u.RawPath = c.base.EscapedPath() + path
	u.RawQuery = rawQuery
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if body == nil {
		req.Body, req.GetBody, req.ContentLength = nil, nil, 0
	}
	return req, nil
}

// authorizeAndSend sets the User-Agent, authorizes req (whose payload is
// body) and sends it, reading at most maxResponseBytes of the answer,
// whatever its status.
func (c *Client) authorizeAndSend(ctx context.Context, req *http.Request, method, path string, body []byte) (*Response, error) {
	req.Header.Set("User-Agent", c.userAgent)
	if err := c.auth.Authorize(ctx, req, body); err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	hresp, err := c.http.Do(req)
	if err != nil {
		return nil, &TransportError{Method: method, Path: path, URL: c.base.Redacted(), Err: err}
	}
	defer hresp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(hresp.Body, maxResponseBytes))
	if err != nil {
		return nil, &TransportError{Method: method, Path: path, URL: c.base.Redacted(), Err: fmt.Errorf("read answer: %w", err)}
	}
	return &Response{Method: method, Path: path, Status: hresp.StatusCode, Header: hresp.Header, Body: data}, nil
}

// TransportError is a request that got no HTTP answer: connection refused,
// DNS failure, TLS failure, timeout.
type TransportError struct {
	Method, Path, URL string
	Err               error
}

// Error implements error.
func (e *TransportError) Error() string {
	if errors.Is(e.Err, context.DeadlineExceeded) {
		return fmt.Sprintf("%s %s: no answer from %s in time", e.Method, e.Path, e.URL)
	}
	var ue *url.Error
	msg := e.Err.Error()
	if errors.As(e.Err, &ue) {
		msg = ue.Err.Error()
	}
	return fmt.Sprintf("%s %s: cannot reach %s: %s", e.Method, e.Path, e.URL, msg)
}

// Unwrap returns the underlying error.
func (e *TransportError) Unwrap() error { return e.Err }

// formatInt renders n for a query parameter.
func formatInt(n int) string { return strconv.Itoa(n) }
