package extractionapi_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/localapi"
)

// FuzzExtractionRequest sends arbitrary bodies through the extraction
// handler over DynamoDB Local, with the fake LLM answering arbitrary text:
// the answer is always a JSON body, and never a 5xx other than the LLM's
// own failure codes (502 llm_failed, 503 llm_unavailable).
func FuzzExtractionRequest(f *testing.F) {
	seeds := []struct{ body, answer string }{
		{outputBody("run-1", "make test\nok"), twoLearnings},
		{outputBody("run-2", "x"), "```json\n" + twoLearnings + "\n```"},
		{outputBody("run-3", "x"), "no JSON here"},
		{outputBody("run-4", "x"), `[{"content": "a"}, {"type": "pattern", "content": "b", "confidence": 7}]`},
		{`{"projectId": "p", "runId": "run-5", "learnings": [{"type": "blocker", "content": "x", "status": "open"}], "summary": "s", "success": true}`, ""},
		{`{"projectId": "p", "runId": "run-6", "learnings": [{"content": "\u0000"}]}`, ""},
		{`{"projectId": "p", "runId": "r", "output": null, "learnings": null}`, ""},
		{`{"projectId": "p", "runId": "r", "output": "x", "learnings": []}`, ""},
		{`nul`, ""},
	}
	for _, s := range seeds {
		f.Add(s.body, s.answer)
	}
	a := newAPITest(f)
	f.Fuzz(func(t *testing.T, body, answer string) {
		a.llm.mu.Lock()
		a.llm.replies = []reply{{content: answer}}
		a.llm.mu.Unlock()
		r := httptest.NewRequest("POST", "/api/agents/nori/extractions", strings.NewReader(body))
		resp, err := a.h.Handle(context.Background(), localapi.Event(r, []byte(body)))
		if err != nil {
			t.Fatalf("handler error %v", err)
		}
		if !json.Valid([]byte(resp.Body)) {
			t.Fatalf("status %d: body %q is not JSON", resp.StatusCode, resp.Body)
		}
		if resp.StatusCode >= 500 {
			code := errorCode(t, resp)
			if code != agentmem.ELLMFailed && code != agentmem.ELLMUnavailable {
				t.Fatalf("%q with answer %q: status %d %s", body, answer, resp.StatusCode, resp.Body)
			}
		}
	})
}
