package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/aws/aws-lambda-go/events"
)

// TestDecodeJSONRefusesWhatEncodingJSONWouldLetThrough: every kind of
// input that encoding/json would accept by guessing (a key given twice,
// bytes that are not UTF-8, a lone surrogate, a key that only matches a
// field without regard to case) is a 400 naming the problem.
func TestDecodeJSONRefusesWhatEncodingJSONWouldLetThrough(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, inMessage string
	}{
		{"duplicate key", `{"projectId":"p1","content":"c","projectId":"p2"}`, `field "projectId" is given twice`},
		{"duplicate key spelled with an escape", `{"projectId":"p1","content":"c","proj\u0065ctId":"p2"}`, `field "projectId" is given twice`},
		{"duplicate key, same value", `{"content":"c","content":"c"}`, `field "content" is given twice`},
		{"duplicate key in a nested object", `{"projectId":"p","runId":"r","learnings":[{"type":"note","content":"a","content":"b"}]}`, `field "learnings[0].content" is given twice`},
		{"key in another case", `{"projectId":"p1","content":"c","ProjectId":"p2"}`, `unknown field "ProjectId" (did you mean "projectId"?`},
		{"key in another case alone", `{"PROJECTID":"p1","content":"c"}`, `unknown field "PROJECTID"`},
		{"nested key in another case", `{"projectId":"p","runId":"r","learnings":[{"Type":"note","content":"a"}]}`, `unknown field "learnings[0].Type"`},
		{"invalid UTF-8 in a value", "{\"projectId\":\"p\",\"content\":\"caf\xe9\"}", "not valid UTF-8"},
		{"invalid UTF-8 in a key", "{\"projectId\":\"p\",\"cont\xffent\":\"c\"}", "not valid UTF-8"},
		{"overlong encoding", "{\"content\":\"\xc0\xaf\"}", "not valid UTF-8"},
		{"encoded surrogate (CESU-8)", "{\"content\":\"\xed\xa0\x80\"}", "not valid UTF-8"},
		{"lone high surrogate", `{"projectId":"p","content":"a\ud800b"}`, "lone UTF-16 surrogate"},
		{"lone high surrogate at the end", `{"projectId":"p","content":"a\ud800"}`, "lone UTF-16 surrogate"},
		{"lone low surrogate", `{"projectId":"p","content":"\udc00"}`, "lone UTF-16 surrogate"},
		{"pair in the wrong order", `{"projectId":"p","content":"\udc00\ud800"}`, "lone UTF-16 surrogate"},
		{"high surrogate and a non-surrogate escape", `{"projectId":"p","content":"\ud800\u0041"}`, "lone UTF-16 surrogate"},
		{"lone surrogate in a key", `{"projectId":"p","\ud800":"c"}`, "lone UTF-16 surrogate"},
		{"bad escape", `{"content":"\x"}`, "invalid escape"},
		{"short unicode escape", `{"content":"\u12"}`, "four hex digits"},
		{"control character", "{\"content\":\"a\x01b\"}", "control character"},
		{"too deep", `{"tags":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`, "nests deeper"},
		{"leading zero", `{"confidence":01}`, "malformed"},
		{"NaN", `{"confidence":NaN}`, "malformed JSON"},
		{"trailing comma", `{"content":"c",}`, "want a string key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in agentmem.ExtractionInput
			var mi agentmem.MemoryInput
			var v any = &mi
			if strings.Contains(tt.body, "learnings") {
				v = &in
			}
			err := httpapi.DecodeJSON("application/json", []byte(tt.body), v)
			if agentmem.ErrorCode(err) != agentmem.EInvalid || !strings.Contains(agentmem.ErrorMessage(err), tt.inMessage) {
				t.Errorf("got %v, want invalid with %q", err, tt.inMessage)
			}
		})
	}
	// What is valid still decodes: a real pair of surrogates, escapes,
	// the same key in two different objects.
	var in agentmem.ExtractionInput
	body := `{"projectId":"p","runId":"r","learnings":[{"type":"note","content":"\ud83d\ude00 \u00e9\n"},{"type":"note","content":"b"}]}`
	if err := httpapi.DecodeJSON("application/json", []byte(body), &in); err != nil || in.Learnings[0].Content != "😀 é\n" {
		t.Errorf("valid body: %+v, %v", in, err)
	}
}

// keysOnce reports whether every object of a valid JSON text has its keys
// once, by encoding/json's token stream (an oracle independent of the
// checker).
func keysOnce(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		obj    bool
		seen   map[string]bool
		expect bool // the next token is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return true
		}
		if err != nil {
			return true // not for this oracle to judge
		}
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			if top.obj && top.expect {
				if d, ok := tok.(json.Delim); ok && d == '}' {
					stack = stack[:len(stack)-1]
					continue
				}
				key := tok.(string)
				if top.seen[key] {
					return false
				}
				top.seen[key] = true
				top.expect = false
				continue
			}
			if top.obj {
				top.expect = true
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{obj: true, seen: map[string]bool{}, expect: true})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].obj {
				stack[len(stack)-1].expect = true
			}
		}
	}
}

// FuzzStrictDecode: whatever the body, decoding never panics and fails
// only with a 4xx; what it accepts is UTF-8, is JSON encoding/json
// accepts too, and holds no key twice in an object.
func FuzzStrictDecode(f *testing.F) {
	for _, s := range []string{
		`{"projectId":"p","runId":"r","learnings":[{"type":"note","content":"a"}]}`,
		`{"projectId":"p","runId":"r","output":"x\ud83d\ude00"}`,
		`{"projectId":"p","projectId":"q"}`, `{"a":{"b":1,"b":2}}`, `{"output":"\ud800"}`,
		"{\"output\":\"\xff\"}", `{"learnings":[[[[]]]]}`, `{"Output":"x"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var in agentmem.ExtractionInput
		err := httpapi.DecodeJSON("application/json", body, &in)
		if err != nil {
			if s := httpapi.StatusFor(agentmem.ErrorCode(err)); s < 400 || s >= 500 {
				t.Fatalf("body %q: status %d for %v", body, s, err)
			}
			return
		}
		if !utf8.Valid(body) || !json.Valid(body) || !keysOnce(body) {
			t.Fatalf("accepted %q: UTF-8 %v, JSON %v, keys once %v", body, utf8.Valid(body), json.Valid(body), keysOnce(body))
		}
	})
}

// TestQueryParametersStrict: a query parameter given twice, and one that
// is not UTF-8, are refused before any handler runs.
func TestQueryParametersStrict(t *testing.T) {
	t.Parallel()
	h, err := httpapi.NewHandler(routes.Personalities, map[routes.Name]httpapi.HandlerFunc{
		routes.ListPersonalities: ok, routes.GetPersonality: ok, routes.PutPersonality: ok, routes.DeletePersonality: ok,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		want  int
	}{
		{"limit=5", 200},
		{"limit=5&limit=6", 400},
		{"cursor=a&limit=5&cursor=a", 400},
		{"limit=%FF", 400},
		{"%FF=1", 400},
		{"limit=%ZZ", 400},
		{"a;b=1", 400},
	}
	for _, tt := range tests {
		ev := events.APIGatewayV2HTTPRequest{RawPath: "/api/personalities", RawQueryString: tt.query, RouteKey: "GET /api/personalities"}
		ev.RequestContext.HTTP.Method = "GET"
		resp, _ := h.Handle(t.Context(), ev)
		if resp.StatusCode != tt.want {
			t.Errorf("?%s: got %d %s, want %d", tt.query, resp.StatusCode, resp.Body, tt.want)
		}
	}
}

func ok(context.Context, *httpapi.Request) (httpapi.Response, error) {
	return httpapi.JSON(200, map[string]string{}), nil
}

// FuzzQuery: any raw query string is parsed or refused with a 400, and a
// parsed one has each parameter once, in UTF-8.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{"projectId=p", "projectId=p&projectId=q", "a=%FF", "a=1;b=2", "q=caf%C3%A9"} {
		f.Add(s)
	}
	h, err := httpapi.NewHandler(routes.Personalities, map[routes.Name]httpapi.HandlerFunc{
		routes.ListPersonalities: echoQuery, routes.GetPersonality: ok, routes.PutPersonality: ok, routes.DeletePersonality: ok,
	}, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		ev := events.APIGatewayV2HTTPRequest{RawPath: "/api/personalities", RawQueryString: raw, RouteKey: "GET /api/personalities"}
		ev.RequestContext.HTTP.Method = "GET"
		resp, _ := h.Handle(t.Context(), ev)
		switch resp.StatusCode {
		case 400:
			return
		case 200:
		default:
			t.Fatalf("?%q: status %d", raw, resp.StatusCode)
		}
		var q url.Values
		if err := json.Unmarshal([]byte(resp.Body), &q); err != nil {
			t.Fatal(err)
		}
		for k, vs := range q {
			if len(vs) != 1 || !utf8.ValidString(k) || !utf8.ValidString(vs[0]) {
				t.Fatalf("?%q: parameter %q = %q", raw, k, vs)
			}
		}
	})
}

func echoQuery(_ context.Context, r *httpapi.Request) (httpapi.Response, error) {
	return httpapi.JSON(200, r.Query), nil
}
