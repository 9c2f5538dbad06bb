package httpapi_test

import (
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/httpapi"
)

func TestDecodeJSONMessages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, contentType, body string
		code, inMessage         string
	}{
		{"ok", "application/json", `{"projectId":"p","content":"c"}`, "", ""},
		{"curl default type", "application/x-www-form-urlencoded", `{"projectId":"p","content":"c"}`, "", ""},
		{"charset", "application/json; charset=utf-8", `{"content":"c"}`, "", ""},
		{"syntax", "", `{"content":}`, agentmem.EInvalid, "malformed JSON"},
		{"truncated", "", `{"content":"c"`, agentmem.EInvalid, "unexpected end"},
		{"unknown", "", `{"colour":1}`, agentmem.EInvalid, `unknown field "colour"`},
		{"type", "", `{"content":true}`, agentmem.EInvalid, `field "content" must be a string`},
		{"number type", "", `{"confidence":"high"}`, agentmem.EInvalid, `field "confidence" must be a number`},
		{"array", "", `[]`, agentmem.EInvalid, "JSON object"},
		{"trailing", "", `{} {}`, agentmem.EInvalid, "exactly one"},
		{"empty", "", ` `, agentmem.EInvalid, "required"},
		{"xml", "application/xml", `{}`, agentmem.EUnsupportedMedia, "application/json"},
		{"xml suffix", "application/problem+xml", `{}`, agentmem.EUnsupportedMedia, "application/json"},
		{"charset in capitals", "application/json; charset=UTF-8", `{"content":"c"}`, "", ""},
		{"charset without the dash", "application/json;charset=utf8", `{"content":"c"}`, "", ""},
		{"another charset, ASCII body", "application/json; charset=iso-8859-1", `{"content":"cafe"}`, "", ""},
		{"another charset, body beyond ASCII", "application/json; charset=iso-8859-1", `{"content":"cafÃ©"}`, agentmem.EUnsupportedMedia, `charset "iso-8859-1"`},
		{"another charset, quoted", `application/json; charset="windows-1252"`, `{"content":"naïve"}`, agentmem.EUnsupportedMedia, `charset "windows-1252"`},
		{"another charset, escaped text", "text/plain; charset=us-ascii", `{"content":"caf\u00e9"}`, "", ""},
		{"too large", "", `{"content":"` + strings.Repeat("a", agentmem.MaxBodyBytes) + `"}`, agentmem.ETooLarge, "limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var in agentmem.MemoryInput
			err := httpapi.DecodeJSON(tt.contentType, []byte(tt.body), &in)
			if got := agentmem.ErrorCode(err); got != tt.code {
				t.Fatalf("got code %q (%v), want %q", got, err, tt.code)
			}
			if msg := agentmem.ErrorMessage(err); !strings.Contains(msg, tt.inMessage) {
				t.Errorf("got message %q, want it to contain %q", msg, tt.inMessage)
			}
		})
	}
}

func TestStatusForEveryCode(t *testing.T) {
	t.Parallel()
	tests := map[string]int{
		agentmem.EInvalid: 400, agentmem.ENotFound: 404, agentmem.EConflict: 409, agentmem.EBusy: 409,
		agentmem.EMethodNotAllowed: 405, agentmem.ETooLarge: 413, agentmem.EUnsupportedMedia: 415,
		agentmem.ELLMUnavailable: 503, agentmem.ELLMFailed: 502, agentmem.EInternal: 500, "unheard-of": 500,
		agentmem.ENoRoute: 404, agentmem.EUnavailable: 503,
	}
	for code, want := range tests {
		if got := httpapi.StatusFor(code); got != want {
			t.Errorf("StatusFor(%q) = %d, want %d", code, got, want)
		}
	}
}

// FuzzDecodeMemoryInput: decoding and validating any body never panics,
// every failure is a 4xx domain error, and what passes is within limits.
func FuzzDecodeMemoryInput(f *testing.F) {
	for _, s := range []string{
		`{"projectId":"p","content":"c"}`,
		`{"projectId":"p","type":"decision","content":"c","rationale":"r"}`,
		`{"projectId":"p","type":"pattern","content":"c","confidence":0.7,"tags":["x"]}`,
		`{"projectId":"p","type":"blocker","content":"c","status":"resolved"}`,
		`{"projectId":"p#q","content":""}`, `[1,2]`, `{"content":1e999}`, `{"tags":[null]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		var in agentmem.MemoryInput
		err := httpapi.DecodeJSON("application/json", []byte(body), &in)
		if err == nil {
			in.Normalize()
			err = in.Validate()
		}
		if err != nil {
			if s := httpapi.StatusFor(agentmem.ErrorCode(err)); s < 400 || s >= 500 {
				t.Fatalf("body %q: status %d for %v", body, s, err)
			}
			return
		}
		if len(in.Content) == 0 || len(in.Content) > agentmem.MaxContentBytes || !in.Type.Valid() {
			t.Fatalf("body %q passed validation with %+v", body, in)
		}
	})
}

// TestDecodeIntegerFields: a fraction or an out-of-range number where an
// integer goes is refused with a message that says so.
func TestDecodeIntegerFields(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{"version":1.5}`, `{"version":1e309}`, `{"version":99999999999999999999}`, `{"version":-1e30}`} {
		var p agentmem.MemoryPatch
		err := httpapi.DecodeJSON("", []byte(body), &p)
		if got, want := agentmem.ErrorCode(err), agentmem.EInvalid; got != want {
			t.Errorf("%s: got code %q (%v), want %q", body, got, err, want)
		}
		if msg := agentmem.ErrorMessage(err); !strings.Contains(msg, `field "version" must be a whole number`) {
			t.Errorf("%s: got message %q, want it to say a whole number", body, msg)
		}
	}
}
