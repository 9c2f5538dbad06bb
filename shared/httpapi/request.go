package httpapi

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/agentmem/agentmem/shared/strictjson"
	"github.com/aws/aws-lambda-go/events"
)

// Request is one API call, routed and with its body decoded from base64.
type Request struct {
	Event  events.APIGatewayV2HTTPRequest
	Route  routes.Route
	Params map[string]string
	Query  url.Values
	body   []byte
}

func newRequest(ev events.APIGatewayV2HTTPRequest, route routes.Route, params map[string]string) (*Request, error) {
	q, err := parseQuery(ev.RawQueryString)
	if err != nil {
		return nil, err
	}
	if len(q) == 0 && len(ev.QueryStringParameters) > 0 {
		// Hand-written events may carry only the parsed parameters
		// (API Gateway joins a repeated one with commas there).
		for k, v := range ev.QueryStringParameters {
			q.Set(k, v)
		}
	}
	if err := knownParams(q, route); err != nil {
		return nil, err
	}
	body := []byte(ev.Body)
	if ev.IsBase64Encoded && ev.Body != "" {
		if body, err = base64.StdEncoding.DecodeString(ev.Body); err != nil {
			return nil, agentmem.Errorf(agentmem.EInvalid, "body is marked base64 but does not decode")
		}
	}
	if len(body) > agentmem.MaxBodyBytes {
		return nil, agentmem.Errorf(agentmem.ETooLarge, "request body is %d bytes; the limit is %d", len(body), agentmem.MaxBodyBytes)
	}
	if c, _ := routes.ContractOf(route.Name); c.Body == nil && len(bytes.TrimSpace(body)) > 0 {
		// As an unknown query parameter: a body the caller believes
		// narrows a DELETE to what it names must not be ignored.
		return nil, agentmem.Errorf(agentmem.EInvalid, "%s %s takes no request body: its parameters go in the path and the query string", route.Method, route.Path)
	}
	return &Request{Event: ev, Route: route, Params: params, Query: q, body: body}, nil
}

// parseQuery parses a raw query string strictly: a parameter given twice
// is refused rather than resolved to one of its values (a DELETE's scope
// must not depend on which one a layer picks), and so are values that are
// not UTF-8 and malformed escapes.
func parseQuery(raw string) (url.Values, error) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return nil, agentmem.Errorf(agentmem.EInvalid, "malformed query string: %v", err)
	}
	for _, k := range slices.Sorted(maps.Keys(q)) { // the same answer to the same query
		vs := q[k]
		if len(vs) > 1 {
			return nil, agentmem.Errorf(agentmem.EInvalid, "query parameter %q is given %d times; give it once", k, len(vs))
		}
		if !utf8.ValidString(k) || !utf8.ValidString(vs[0]) {
			return nil, agentmem.Errorf(agentmem.EInvalid, "query parameter %q is not valid UTF-8", strings.ToValidUTF8(k, "\ufffd"))
		}
	}
	return q, nil
}

// knownParams refuses a query parameter the route does not take (its
// routes.Contract's Query): a misspelt or misplaced one would otherwise be
// ignored, and a filter the caller believes in silently not applied.
func knownParams(q url.Values, route routes.Route) error {
	c, _ := routes.ContractOf(route.Name)
	var names []string
	for _, p := range c.Query {
		names = append(names, p.Name)
	}
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if !slices.Contains(names, k) {
			takes := "no query parameters"
			if len(names) > 0 {
				takes = "only " + strings.Join(names, ", ")
			}
			return agentmem.Errorf(agentmem.EInvalid, "unknown query parameter %q: %s %s takes %s", k, route.Method, route.Path, takes)
		}
	}
	return nil
}

// Param returns the path parameter name.
func (r *Request) Param(name string) string { return r.Params[name] }

// Header returns the header name, matched case-insensitively.
func (r *Request) Header(name string) string {
	for k, v := range r.Event.Headers {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// IdempotencyKey returns the request's idempotency key: the
// agentmem.IdempotencyHeader header or clientToken, the body's field (""
// when neither is set). Both set and different, or malformed, is
// EInvalid.
func (r *Request) IdempotencyKey(clientToken string) (string, error) {
	return agentmem.IdempotencyKey(r.Header(agentmem.IdempotencyHeader), clientToken)
}

// Accepts reports whether the Accept header names mediaType (e.g.
// "text/markdown"); parameters and quality values are ignored.
func (r *Request) Accepts(mediaType string) bool {
	for _, part := range strings.Split(r.Header("Accept"), ",") {
		mt, _, _ := strings.Cut(part, ";")
		if strings.EqualFold(strings.TrimSpace(mt), mediaType) {
			return true
		}
	}
	return false
}

// AgentName returns the validated {agentName} path parameter.
func (r *Request) AgentName() (string, error) {
	name := r.Param("agentName")
	return name, agentmem.ValidateAgentName(name)
}

// ProjectID returns the validated projectId query parameter.
func (r *Request) ProjectID() (string, error) {
	id := r.Query.Get("projectId")
	return id, agentmem.ValidateProjectID(id)
}

// Scope returns the validated {agentName} path parameter and projectId
// query parameter that most routes of an agent's project need.
func (r *Request) Scope() (agent, project string, err error) {
	if agent, err = r.AgentName(); err != nil {
		return "", "", err
	}
	if project, err = r.ProjectID(); err != nil {
		return "", "", err
	}
	return agent, project, nil
}

// IntQuery returns the integer query parameter name, def when absent, and an
// EInvalid error when it is not an integer within [min, max].
func (r *Request) IntQuery(name string, def, min, max int) (int, error) {
	s := r.Query.Get(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < min || n > max {
		return 0, agentmem.Errorf(agentmem.EInvalid, "%s must be an integer from %d to %d", name, min, max)
	}
	return n, nil
}

// BoolQuery returns the boolean query parameter name, def when absent, and
// an EInvalid error when it is neither true nor false (a "yes" or "1" read
// as false would drop what the caller asked for without a word).
func (r *Request) BoolQuery(name string, def bool) (bool, error) {
	switch s := r.Query.Get(name); s {
	case "":
		return def, nil
	case "true":
		return true, nil
	case "false":
		return false, nil
	default:
		return false, agentmem.Errorf(agentmem.EInvalid, "%s must be true or false, not %q", name, s)
	}
}

// HasBody reports whether the request carries a body other than white
// space: routes whose body is optional decode only then.
func (r *Request) HasBody() bool { return len(bytes.TrimSpace(r.body)) > 0 }

// Decode decodes the JSON body into v strictly: the body must be one JSON
// object, in UTF-8, with no unknown fields (names match exactly, case
// included), no field given twice at any depth, no lone surrogate escapes
// and values of the right types (strictjson.Check). Every failure
// is an EInvalid (or ETooLarge, EUnsupportedMedia) error with a message that
// names the problem.
func (r *Request) Decode(v any) error { return DecodeJSON(r.Header("Content-Type"), r.body, v) }

// DecodeJSON is Decode for a content type and body.
func DecodeJSON(contentType string, body []byte, v any) error {
	// Any content type whose body is a JSON object is accepted (curl -d
	// sends form-urlencoded); only types that cannot be JSON are refused,
	// and a body declared in another character set than UTF-8 whose
	// bytes that set reads otherwise (anything beyond ASCII): read as
	// UTF-8, it would be stored as something else than the caller wrote.
	if mt, params, err := mime.ParseMediaType(contentType); err == nil {
		if strings.HasPrefix(mt, "multipart/") || strings.HasSuffix(mt, "/xml") || strings.HasSuffix(mt, "+xml") {
			return agentmem.Errorf(agentmem.EUnsupportedMedia, "Content-Type must be application/json, got %q", contentType)
		}
		if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") && !isASCII(body) {
			return agentmem.Errorf(agentmem.EUnsupportedMedia, "Content-Type declares charset %q and the body is not plain ASCII: send JSON in UTF-8 (charset=utf-8, or no charset)", cs)
		}
	}
	if len(body) > agentmem.MaxBodyBytes {
		return agentmem.Errorf(agentmem.ETooLarge, "request body is %d bytes; the limit is %d", len(body), agentmem.MaxBodyBytes)
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return agentmem.Errorf(agentmem.EInvalid, "request body is required (a JSON object)")
	}
	if trimmed[0] != '{' {
		return agentmem.Errorf(agentmem.EInvalid, "request body must be a JSON object")
	}
	if err := strictjson.Check(trimmed, reflect.TypeOf(v), "request body"); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return agentmem.Errorf(agentmem.EInvalid, "request body must hold exactly one JSON object")
	}
	return nil
}

// isASCII reports whether b holds ASCII bytes only, which read the same in
// UTF-8 and in every charset a JSON client declares by mistake.
func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func decodeError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return agentmem.Errorf(agentmem.EInvalid, "malformed JSON at byte %d: %v", syntax.Offset, syntax)
	case errors.As(err, &typ):
		if typ.Field == "" {
			return agentmem.Errorf(agentmem.EInvalid, "request body must be a JSON object")
		}
		kind := typ.Type.Kind().String()
		if strings.HasPrefix(typ.Value, "number") && (strings.HasPrefix(kind, "int") || strings.HasPrefix(kind, "uint")) {
			// A number where an integer goes: a fraction, or one too large.
			return agentmem.Errorf(agentmem.EInvalid, "field %q must be a whole number within range, not %s", typ.Field, strings.TrimPrefix(typ.Value, "number "))
		}
		return agentmem.Errorf(agentmem.EInvalid, "field %q must be %s, not %s", typ.Field, jsonKind(kind), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return agentmem.Errorf(agentmem.EInvalid, "malformed JSON: unexpected end of body")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return agentmem.Errorf(agentmem.EInvalid, "unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return agentmem.Errorf(agentmem.EInvalid, "malformed JSON: %v", err)
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	case "ptr":
		return "a value of another type"
	}
	if strings.HasPrefix(goKind, "int") || strings.HasPrefix(goKind, "uint") || strings.HasPrefix(goKind, "float") {
		return "a number"
	}
	return fmt.Sprintf("a %s", goKind)
}
