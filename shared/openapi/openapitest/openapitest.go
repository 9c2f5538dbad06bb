// Package openapitest holds agentmem's requests and answers to its OpenAPI
// document (package openapi): a Validator checks a request's parameters
// and body, and an answer's status, content type and body, against the
// route's operation, with a JSON Schema 2020-12 validator (formats
// asserted). functions/apitest runs every answer of the API tests through
// it, and the sample events of events/ are checked as requests, so that
// the document describes what the handlers really do.
package openapitest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/openapi"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// docURL is the document's name among the compiler's resources.
const docURL = "openapi.json"

// Validator checks requests and answers against the OpenAPI document. It
// is safe for concurrent use.
type Validator struct {
	doc map[string]any

	mu       sync.Mutex
	compiler *jsonschema.Compiler
	compiled map[string]*jsonschema.Schema
}

// New returns a validator of the generated document (one per process).
func New() (*Validator, error) { return shared() }

var shared = sync.OnceValues(func() (*Validator, error) {
	return NewFor(openapi.Document())
})

// NewFor returns a validator of the document raw (tests of the validator
// give it documents of their own).
func NewFor(raw []byte) (*Validator, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("the OpenAPI document is not JSON: %w", err)
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return nil, errors.New("the OpenAPI document is not a JSON object")
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(docURL, doc); err != nil {
		return nil, err
	}
	return &Validator{doc: m, compiler: c, compiled: map[string]*jsonschema.Schema{}}, nil
}

// ErrNoOperation is returned for a method and path that name no route:
// the document describes no answer for them (404 no_route, 405).
var ErrNoOperation = errors.New("no operation of the document has this method and path")

// operation returns the route of method and path, its path parameters and
// the JSON pointer of its operation object.
func (v *Validator) operation(method, path string) (routes.Route, map[string]string, []string, error) {
	r, params, _ := routes.Match(method, path)
	if r.Name == "" {
		return r, nil, nil, ErrNoOperation
	}
	ptr := []string{"paths", r.Path, strings.ToLower(method)}
	if _, ok := v.at(ptr).(map[string]any); !ok {
		return r, nil, nil, fmt.Errorf("the document has no operation %s (route %s): add the route's contract to shared/routes/contracts.go and run make docs", r.Key(), r.Name)
	}
	return r, params, ptr, nil
}

// at returns the value at a JSON pointer (as a list of unescaped tokens).
func (v *Validator) at(ptr []string) any {
	var cur any = v.doc
	for _, tok := range ptr {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			cur = c[i]
		default:
			return nil
		}
	}
	return cur
}

// resolve follows a {"$ref": "#/..."} object to what it names.
func (v *Validator) resolve(ptr []string) []string {
	for range 8 {
		m, _ := v.at(ptr).(map[string]any)
		ref, _ := m["$ref"].(string)
		if !strings.HasPrefix(ref, "#/") {
			return ptr
		}
		ptr = nil
		for _, tok := range strings.Split(ref[2:], "/") {
			ptr = append(ptr, strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~"))
		}
	}
	return ptr
}

// schema compiles (once) the schema at ptr.
func (v *Validator) schema(ptr []string) (*jsonschema.Schema, error) {
	var b strings.Builder
	for _, tok := range ptr {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1"))
	}
	loc := docURL + "#" + (&url.URL{Fragment: b.String()}).EscapedFragment()
	v.mu.Lock()
	defer v.mu.Unlock()
	if s, ok := v.compiled[loc]; ok {
		return s, nil
	}
	s, err := v.compiler.Compile(loc)
	if err != nil {
		return nil, fmt.Errorf("compile %s: %w", loc, err)
	}
	v.compiled[loc] = s
	return s, nil
}

// validate checks value (decoded with jsonschema.UnmarshalJSON, or a
// string or number) against the schema at ptr.
func (v *Validator) validate(ptr []string, value any) error {
	s, err := v.schema(ptr)
	if err != nil {
		return err
	}
	return s.Validate(value)
}

// Response checks an answer of the API to method and path: its status is
// one the operation lists, its content type one the status has, and its
// body valid against that content's schema. It returns ErrNoOperation
// for a method and path that name no route.
func (v *Validator) Response(method, path string, status int, contentType string, body []byte) error {
	r, _, op, err := v.operation(method, path)
	if err != nil {
		return err
	}
	resp := append(slices.Clone(op), "responses", strconv.Itoa(status))
	if v.at(resp) == nil {
		return fmt.Errorf("%s answered %d, a status its operation (%s) does not list: if the route may answer it, add the code to its Errors (or an Answer) in shared/routes/contracts.go and run make docs; body: %s",
			r.Key(), status, r.Name, snippet(body))
	}
	resp = v.resolve(resp)
	content, _ := v.at(append(slices.Clone(resp), "content")).(map[string]any)
	if len(content) == 0 {
		if len(bytes.TrimSpace(body)) > 0 {
			return fmt.Errorf("%s answered %d with a body, which the document says it has none of: %s", r.Key(), status, snippet(body))
		}
		return nil
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return fmt.Errorf("%s answered %d with Content-Type %q: %v", r.Key(), status, contentType, err)
	}
	if _, ok := content[mt]; !ok {
		return fmt.Errorf("%s answered %d with %s, which the document does not list (%s)", r.Key(), status, mt, strings.Join(keys(content), ", "))
	}
	if mt != "application/json" {
		return nil
	}
	value, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s answered %d with a body that is not JSON: %v: %s", r.Key(), status, err, snippet(body))
	}
	if err := v.validate(append(resp, "content", mt, "schema"), value); err != nil {
		return fmt.Errorf("%s answered %d with a body the document does not describe: %v\nbody: %s", r.Key(), status, err, snippet(body))
	}
	return nil
}

// contractHeaders are the answer headers that belong to the API's
// contract: an answer that sends one must be an answer the document
// declares it on.
var contractHeaders = []string{"Location", "Retry-After", agentmem.ReplayedHeader}

// Headers checks an answer's headers against the headers its status
// declares: each declared one the answer sends has a value its schema
// allows, each required one is sent, and each of the contract's headers
// (Location, Retry-After, Idempotent-Replayed) that the answer sends is
// declared. It returns ErrNoOperation for a method and path that name no
// route.
func (v *Validator) Headers(method, path string, status int, h http.Header) error {
	r, _, op, err := v.operation(method, path)
	if err != nil {
		return err
	}
	resp := append(slices.Clone(op), "responses", strconv.Itoa(status))
	if v.at(resp) == nil {
		return fmt.Errorf("%s answered %d, a status its operation (%s) does not list", r.Key(), status, r.Name)
	}
	resp = v.resolve(resp)
	declared, _ := v.at(append(slices.Clone(resp), "headers")).(map[string]any)
	var errs []error
	for _, name := range keys(declared) {
		ptr := v.resolve(append(slices.Clone(resp), "headers", name))
		hdr, _ := v.at(ptr).(map[string]any)
		vals := h.Values(name)
		if len(vals) == 0 {
			if required, _ := hdr["required"].(bool); required {
				errs = append(errs, fmt.Errorf("header %s is required and missing", name))
			}
			continue
		}
		if len(vals) > 1 {
			errs = append(errs, fmt.Errorf("header %s sent %d times", name, len(vals)))
			continue
		}
		schemaPtr := append(ptr, "schema")
		value, err := v.paramValue(schemaPtr, vals[0])
		if err == nil {
			err = v.validate(schemaPtr, value)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("header %s: %q: %v", name, vals[0], err))
		}
	}
	for _, name := range contractHeaders {
		if _, ok := declared[name]; !ok && h.Get(name) != "" {
			errs = append(errs, fmt.Errorf("header %s: %q, which the document does not declare on this answer (shared/openapi)", name, h.Get(name)))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s answered %d with headers the document does not describe: %w", r.Key(), status, errors.Join(errs...))
	}
	return nil
}

// Request checks a request to method and path: its path and query
// parameters (required ones present, no unknown ones, values valid) and
// its JSON body against the operation's request body.
func (v *Validator) Request(method, path string, query url.Values, body []byte) error {
	r, params, op, err := v.operation(method, path)
	if err != nil {
		return err
	}
	var errs []error
	declared := map[string]bool{}
	list, _ := v.at(append(slices.Clone(op), "parameters")).([]any)
	for i := range list {
		ptr := v.resolve(append(slices.Clone(op), "parameters", strconv.Itoa(i)))
		p, _ := v.at(ptr).(map[string]any)
		name, _ := p["name"].(string)
		in, _ := p["in"].(string)
		required, _ := p["required"].(bool)
		var raw string
		var present bool
		switch in {
		case "path":
			raw, present = params[name]
		case "query":
			declared[name] = true
			if vals, ok := query[name]; ok {
				raw, present = vals[0], true
			}
		default:
			continue
		}
		if !present {
			if required {
				errs = append(errs, fmt.Errorf("%s parameter %s is required", in, name))
			}
			continue
		}
		schemaPtr := append(ptr, "schema")
		value, err := v.paramValue(schemaPtr, raw)
		if err == nil {
			err = v.validate(schemaPtr, value)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s parameter %s=%q: %v", in, name, raw, err))
		}
	}
	for name := range query {
		if !declared[name] {
			errs = append(errs, fmt.Errorf("query parameter %s is not one the operation declares", name))
		}
	}
	bodyPtr := append(slices.Clone(op), "requestBody", "content", "application/json", "schema")
	switch {
	case v.at(bodyPtr) == nil && len(bytes.TrimSpace(body)) > 0:
		errs = append(errs, errors.New("a body, which the operation takes none of"))
	case v.at(bodyPtr) != nil:
		value, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
		if err == nil {
			err = v.validate(bodyPtr, value)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("body: %v", err))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s %s (%s): %w", method, path, r.Name, errors.Join(errs...))
	}
	return nil
}

// paramValue converts a parameter's text to the JSON value its schema's
// type expects.
func (v *Validator) paramValue(schemaPtr []string, raw string) (any, error) {
	m, _ := v.at(v.resolve(schemaPtr)).(map[string]any)
	switch m["type"] {
	case "integer", "number":
		n := json.Number(raw)
		if _, err := n.Float64(); err != nil {
			return nil, fmt.Errorf("not a number")
		}
		return n, nil
	case "boolean":
		b, err := strconv.ParseBool(raw)
		if err != nil || (raw != "true" && raw != "false") {
			return nil, fmt.Errorf("not true or false")
		}
		return b, nil
	}
	return raw, nil
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// snippet is the start of a body, for messages.
func snippet(b []byte) string {
	const max = 600
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

// Check fails t when an answer of the API to method and path (its
// status, headers, as a Lambda response carries them, and body) does not
// match the document; answers to what names no route are not checked.
func Check(t testing.TB, method, path string, status int, headers map[string]string, body string) {
	t.Helper()
	v, err := New()
	if err != nil {
		t.Fatalf("the OpenAPI document: %v", err)
	}
	h := http.Header{}
	for k, val := range headers {
		h.Set(k, val)
	}
	if err := v.Answer(method, path, status, h, []byte(body)); err != nil && !errors.Is(err, ErrNoOperation) {
		t.Errorf("the answer does not match the OpenAPI document (shared/routes/contracts.go, the agentmem types): %v", err)
	}
}

// Answer checks a whole answer, its body (Response) and its headers
// (Headers).
func (v *Validator) Answer(method, path string, status int, h http.Header, body []byte) error {
	if err := v.Response(method, path, status, h.Get("Content-Type"), body); err != nil {
		return err
	}
	return v.Headers(method, path, status, h)
}
