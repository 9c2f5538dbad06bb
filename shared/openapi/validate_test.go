package openapi_test

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/openapi"
	"github.com/agentmem/agentmem/shared/openapi/openapitest"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/aws/aws-lambda-go/events"
)

func validator(t *testing.T) *openapitest.Validator {
	t.Helper()
	v, err := openapitest.New()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestEventsAreValidRequests: every sample event of a route (events/,
// what sam local invoke and the replay tests send) is a request the
// document accepts.
func TestEventsAreValidRequests(t *testing.T) {
	t.Parallel()
	v := validator(t)
	for _, r := range routes.All {
		path := filepath.Join("..", "..", "events", string(r.Function), string(r.Name)+".json")
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("route %s: %v", r.Name, err)
			continue
		}
		var ev events.APIGatewayV2HTTPRequest
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		q, err := url.ParseQuery(ev.RawQueryString)
		if err != nil {
			t.Errorf("%s: rawQueryString: %v", path, err)
		}
		body := []byte(ev.Body)
		if ev.IsBase64Encoded {
			if body, err = base64.StdEncoding.DecodeString(ev.Body); err != nil {
				t.Fatalf("%s: body: %v", path, err)
			}
		}
		if err := v.Request(ev.RequestContext.HTTP.Method, ev.RawPath, q, body); err != nil {
			t.Errorf("%s is not a request the OpenAPI document accepts: %v", path, err)
		}
	}
}

// TestExamplesAreValid: every example of the document is valid against
// its schema, and every request body type has one.
func TestExamplesAreValid(t *testing.T) {
	t.Parallel()
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Examples []json.RawMessage `json:"examples"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openapi.Document(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range routes.All {
		c, _ := routes.ContractOf(r.Name)
		if c.Body == nil {
			continue
		}
		if s := doc.Components.Schemas[c.Body.Name()]; len(s.Examples) == 0 {
			t.Errorf("route %s: its body %s has no example: add one to examples in shared/openapi/examples.go", r.Name, c.Body.Name())
		}
	}
	// Each example goes through a document whose only route answers it.
	for name, s := range doc.Components.Schemas {
		for _, ex := range s.Examples {
			if err := validateComponent(t, name, ex); err != nil {
				t.Errorf("the example of %s is not valid against its schema: %v", name, err)
			}
		}
	}
}

// validateComponent validates value against the component schema name.
func validateComponent(t *testing.T, name string, value []byte) error {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(openapi.Document(), &doc); err != nil {
		t.Fatal(err)
	}
	// A copy of the document whose health answer is the component.
	paths := doc["paths"].(map[string]any)
	get := paths["/api/health"].(map[string]any)["get"].(map[string]any)
	get["responses"] = map[string]any{"200": map[string]any{"description": "x", "content": map[string]any{
		"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/" + name}}}}}
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	v, err := openapitest.NewFor(raw)
	if err != nil {
		t.Fatal(err)
	}
	return v.Response("GET", "/api/health", 200, "application/json", value)
}

func TestValidatorResponses(t *testing.T) {
	t.Parallel()
	v := validator(t)
	memory, _ := json.Marshal(agentmem.Memory{ID: "01JD5Q8Z3K7M2N4P6R8T0V2X4Y", AgentName: "nori", ProjectID: "p",
		Content: "c", Type: agentmem.TypeNote, Source: agentmem.SourceManual, CreatedAt: "2026-03-02T09:14:05.123456789Z"})
	envelope := func(code string) []byte {
		b, _ := json.Marshal(agentmem.Envelope(agentmem.Errorf(code, "x")))
		return b
	}
	const get = "/api/agents/nori/memories/01JD5Q8Z3K7M2N4P6R8T0V2X4Y"
	tests := []struct {
		name, method, path string
		status             int
		contentType        string
		body               []byte
		wantErr            string // "" valid
	}{
		{"a memory", "GET", get, 200, "application/json", memory, ""},
		{"an unknown field", "GET", get, 200, "application/json", []byte(strings.Replace(string(memory), `{`, `{"secret":1,`, 1)), "additional"},
		{"a missing required field", "GET", get, 200, "application/json", []byte(`{"id":"01JD5Q8Z3K7M2N4P6R8T0V2X4Y"}`), "missing"},
		{"a bad time", "GET", get, 200, "application/json", []byte(strings.Replace(string(memory), "2026-03-02T", "2026-03-02 ", 1)), "date-time"},
		{"a listed error", "GET", get, 404, "application/json", envelope(agentmem.ENotFound), ""},
		{"a code of another status", "GET", get, 404, "application/json", envelope(agentmem.EConflict), "code"},
		{"an unlisted status", "GET", get, 409, "application/json", envelope(agentmem.EConflict), "contracts.go"},
		{"a body on 204", "DELETE", get, 204, "", []byte(`{}`), "none"},
		{"an empty 204", "DELETE", get, 204, "", nil, ""},
		{"an unlisted content type", "GET", get, 200, "text/plain", []byte("x"), "text/plain"},
		{"Markdown where it is listed", "GET", "/api/agents/nori/memory.md", 200, "text/markdown; charset=utf-8", []byte("# x"), ""},
		{"health's 503", "GET", "/api/health", 503, "application/json",
			[]byte(`{"status":"unavailable","tables":[],"error":{"code":"unavailable","message":"m"}}`), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := v.Response(tt.method, tt.path, tt.status, tt.contentType, tt.body)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("got %v, want valid", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("got %v, want an error mentioning %q", err, tt.wantErr)
			}
		})
	}
	if err := v.Response("GET", "/api/nothing", 404, "application/json", envelope(agentmem.ENoRoute)); !errors.Is(err, openapitest.ErrNoOperation) {
		t.Errorf("unknown path: got %v, want ErrNoOperation", err)
	}
}

func TestValidatorRequests(t *testing.T) {
	t.Parallel()
	v := validator(t)
	q := func(s string) url.Values {
		v, _ := url.ParseQuery(s)
		return v
	}
	tests := []struct {
		name, method, path, query, body string
		wantErr                         string
	}{
		{"a list", "GET", "/api/agents/nori/memories", "projectId=p&limit=50&type=decision&cursor=abc", "", ""},
		{"projectId missing", "GET", "/api/agents/nori/memories", "limit=5", "", "projectId is required"},
		{"limit out of range", "GET", "/api/agents/nori/memories", "projectId=p&limit=51", "", "limit"},
		{"limit not a number", "GET", "/api/agents/nori/memories", "projectId=p&limit=ten", "", "not a number"},
		{"an unknown type", "GET", "/api/agents/nori/memories", "projectId=p&type=rumour", "", "type"},
		{"an unknown parameter", "GET", "/api/agents/nori/memories", "projectId=p&colour=red", "", "colour"},
		{"a bad agent name", "GET", "/api/agents/no%23ri/memories", "projectId=p", "", "agentName"},
		{"a body", "POST", "/api/agents/nori/memories", "", `{"projectId":"p","content":"c","type":"finding"}`, ""},
		{"a body with an unknown field", "POST", "/api/agents/nori/memories", "", `{"projectId":"p","content":"c","colour":"red"}`, "additional"},
		{"a blank content", "POST", "/api/agents/nori/memories", "", `{"projectId":"p","content":"   "}`, "content"},
		{"a body where none goes", "GET", "/api/health", "", `{}`, "takes none"},
		{"a boolean", "GET", "/api/agents/nori/dreams/2026-03-01", "projectId=p&plan=true", "", ""},
		{"not a boolean", "GET", "/api/agents/nori/dreams/2026-03-01", "projectId=p&plan=yes", "", "plan"},
		{"not a date", "GET", "/api/agents/nori/dreams/March-1", "projectId=p", "", "date"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := v.Request(tt.method, tt.path, q(tt.query), []byte(tt.body))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("got %v, want valid", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("got %v, want an error mentioning %q", err, tt.wantErr)
			}
		})
	}
}

// schemaPattern returns the pattern of a property of a component schema.
func schemaPattern(t *testing.T, component, property string) *regexp.Regexp {
	t.Helper()
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Pattern string `json:"pattern"`
					Items   struct {
						Pattern string `json:"pattern"`
					} `json:"items"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openapi.Document(), &doc); err != nil {
		t.Fatal(err)
	}
	p := doc.Components.Schemas[component].Properties[property]
	pat := p.Pattern
	if pat == "" {
		pat = p.Items.Pattern
	}
	if pat == "" {
		t.Fatalf("%s.%s has no pattern", component, property)
	}
	return regexp.MustCompile(pat)
}

// TestPatternsAgreeWithTheDomain: the document's patterns accept exactly
// what the domain's validators accept, on every printable ASCII character,
// some others, and lengths around the limits.
func TestPatternsAgreeWithTheDomain(t *testing.T) {
	t.Parallel()
	var samples []string
	for c := rune(0x20); c < 0x7f; c++ {
		samples = append(samples, "a"+string(c)+"b", string(c))
	}
	samples = append(samples, "", "é", "a\nb", "nori", "checkout-service",
		".", "..", "...", ".a", "a.", "-.", "._", "v1.2", "a..b", ".hidden", "..a", "a..", strings.Repeat(".", 64),
		strings.Repeat("x", 64), strings.Repeat("x", 65), strings.Repeat("x", 128), strings.Repeat("x", 129))
	tests := []struct {
		component, property string
		valid               func(string) bool
	}{
		{"Memory", "agentName", func(s string) bool { return agentmem.ValidateAgentName(s) == nil }},
		{"Memory", "projectId", func(s string) bool { return agentmem.ValidateProjectID(s) == nil }},
		{"Memory", "runId", func(s string) bool { return agentmem.ValidateRunID(s) == nil }},
		{"SessionEntry", "sessionId", func(s string) bool { return agentmem.ValidateSessionID(s) == nil }},
		{"SessionEntry", "key", func(s string) bool { return agentmem.ValidateKey(s) == nil }},
		{"MemoryInput", "tags", func(s string) bool { return agentmem.ValidateTags([]string{s}) == nil }},
		{"ForgetInput", "olderThan", func(s string) bool { _, err := agentmem.ParseAge(s); return err == nil }},
	}
	// (The pattern leaves the hundred-year bound to the server.)
	ages := []string{"1h", "30d", "2w", "0d", "01d", "1m", "1.5d", "-1d", "d", "12", "7 d", "1D", "36500d"}
	for _, tt := range tests {
		re := schemaPattern(t, tt.component, tt.property)
		list := samples
		if tt.property == "olderThan" {
			list = ages
		}
		for _, s := range list {
			if got, want := re.MatchString(s), tt.valid(s); got != want {
				t.Errorf("%s.%s pattern %s on %q: matches %v, the domain accepts %v", tt.component, tt.property, re, s, got, want)
			}
		}
	}
}

// TestRulesNameRealFields: every rule of rules.go names a property that
// exists, so that a renamed field cannot leave its limits behind.
func TestRulesNameRealFields(t *testing.T) {
	t.Parallel()
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openapi.Document(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, key := range openapi.RuleKeys() {
		typ, prop, _ := strings.Cut(key, ".")
		s, ok := doc.Components.Schemas[typ]
		if _, has := s.Properties[prop]; !ok || !has {
			t.Errorf("rule %s names no property of a component (renamed?)", key)
		}
	}
	if got := reflect.TypeFor[agentmem.ErrorEnvelope]().Name(); doc.Components.Schemas[got].Properties == nil {
		t.Errorf("no %s component", got)
	}
}

// TestValidatorHeaders holds answers' headers to the document: the ones
// the API sends (Location, Retry-After, Idempotent-Replayed) must be
// declared on the answer that sends them, with values their schemas allow.
func TestValidatorHeaders(t *testing.T) {
	t.Parallel()
	v := validator(t)
	const (
		memories    = "/api/agents/nori/memories"
		extractions = "/api/agents/nori/extractions"
		memory      = memories + "/01JD5Q8Z3K7M2N4P6R8T0V2X4Y"
	)
	h := func(kv ...string) http.Header {
		out := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			out.Add(kv[i], kv[i+1])
		}
		return out
	}
	tests := []struct {
		name, method, path string
		status             int
		header             http.Header
		wantErr            string // "" valid
	}{
		{"a created memory's Location", "POST", memories, 201, h("Location", memory), ""},
		{"a created memory without its Location", "POST", memories, 201, h(), "Location is required"},
		{"a replayed create", "POST", memories, 201, h("Location", memory, "Idempotent-Replayed", "true"), ""},
		{"a replay header that is not true", "POST", memories, 201, h("Location", memory, "Idempotent-Replayed", "yes"), "Idempotent-Replayed"},
		{"a Location where none is declared", "GET", memory, 200, h("Location", memory), "does not declare"},
		{"the store unavailable, retry after a second", "GET", memory, 503, h("Retry-After", "1"), ""},
		{"a lease held, retry after 30 s", "POST", extractions, 409, h("Retry-After", "30"), ""},
		{"a Retry-After that is no number of seconds", "GET", memory, 503, h("Retry-After", "soon"), "Retry-After"},
		{"a Retry-After of zero seconds", "GET", memory, 503, h("Retry-After", "0"), "Retry-After"},
		{"a Retry-After on a status that sends none", "GET", memory, 404, h("Retry-After", "1"), "does not declare"},
		{"a header twice", "POST", memories, 201, h("Location", memory, "Location", memory), "2 times"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := v.Headers(tt.method, tt.path, tt.status, tt.header)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("got %v, want valid", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("got %v, want an error mentioning %q", err, tt.wantErr)
			}
		})
	}
}
