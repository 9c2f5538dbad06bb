package memoryapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
)

func errCode(t *testing.T, body string) string {
	t.Helper()
	var env agentmem.ErrorEnvelope
	if err := json.Unmarshal([]byte(body), &env); err != nil {
		t.Fatalf("error body %q: %v", body, err)
	}
	return env.Error.Code
}

func TestCreateAnswersTheStoredRepeat(t *testing.T) {
	a := newAPITest(t)
	first := a.do("POST", "/api/agents/nori/memories", `{"projectId":"p","type":"finding","content":"Run `+"`make test`"+` (not go test): it starts DynamoDB Local."}`)
	if first.StatusCode != http.StatusCreated {
		t.Fatalf("first: %d %s", first.StatusCode, first.Body)
	}
	m := decode[agentmem.CreateResult](t, first)
	if m.Duplicate || m.Version != 1 {
		t.Errorf("first: got %+v", m)
	}
	tests := []struct {
		name, body string
		status     int
	}{
		{"exact", `{"projectId":"p","type":"finding","content":"Run ` + "`make test`" + ` (not go test): it starts DynamoDB Local."}`, 200},
		{"case, backticks, punctuation", `{"projectId":"p","type":"finding","content":"run make test, not go test. It starts dynamodb local"}`, 200},
		{"as a learning", `{"projectId":"p","type":"learning","content":"Run make test (not go test); it starts DynamoDB Local"}`, 200},
		{"another command", `{"projectId":"p","type":"finding","content":"Run make check (not go test): it starts DynamoDB Local."}`, 201},
		{"insisted", `{"projectId":"p","type":"finding","content":"run make test, not go test. It starts dynamodb local","allowDuplicate":true}`, 201},
		{"another project", `{"projectId":"q","type":"finding","content":"Run make test (not go test): it starts DynamoDB Local."}`, 201},
		{"a session note is never a repeat", `{"projectId":"p","type":"session","content":"Worked on the tests"}`, 201},
		{"a session note again", `{"projectId":"p","type":"session","content":"Worked on the tests"}`, 201},
	}
	for _, tt := range tests {
		resp := a.do("POST", "/api/agents/nori/memories", tt.body)
		if resp.StatusCode != tt.status {
			t.Errorf("%s: got %d %s, want %d", tt.name, resp.StatusCode, resp.Body, tt.status)
			continue
		}
		got := decode[agentmem.CreateResult](t, resp)
		if tt.status == 200 {
			if !got.Duplicate || got.DuplicateOf != m.ID || got.ID != m.ID || got.Match == "" || got.Content != m.Content {
				t.Errorf("%s: got %+v, want the stored memory %s flagged duplicate", tt.name, got, m.ID)
			}
			if loc := resp.Headers["Location"]; loc != "/api/agents/nori/memories/"+m.ID {
				t.Errorf("%s: Location %q", tt.name, loc)
			}
		} else if got.Duplicate || got.ID == m.ID {
			t.Errorf("%s: got %+v, want a new memory", tt.name, got)
		}
	}
	st := decode[agentmem.Stats](t, a.do("GET", "/api/agents/nori/stats?projectId=p", ""))
	if st.Total != 5 {
		t.Errorf("stored in p: %d, want 5 (first, another command, insisted, two sessions)", st.Total)
	}
}

func TestPatchEditsInPlaceWithOptimisticConcurrency(t *testing.T) {
	a := newAPITest(t)
	m := decode[agentmem.Memory](t, a.do("POST", "/api/agents/nori/memories", `{"projectId":"p","type":"finding","content":"The CI runs on Node 18","tags":["ci"]}`))
	path := "/api/agents/nori/memories/" + m.ID
	bad := []struct {
		name, target, body string
		status             int
		code               string
	}{
		{"no version", path, `{"content":"x"}`, 400, agentmem.EInvalid},
		{"null version", path, `{"version":null,"content":"x"}`, 400, agentmem.EInvalid},
		{"version 0", path, `{"version":0,"content":"x"}`, 400, agentmem.EInvalid},
		{"version a string", path, `{"version":"1","content":"x"}`, 400, agentmem.EInvalid},
		{"nothing to change", path, `{"version":1}`, 400, agentmem.EInvalid},
		{"blank content", path, `{"version":1,"content":"  "}`, 400, agentmem.EInvalid},
		{"field of another type", path, `{"version":1,"rationale":"why"}`, 400, agentmem.EInvalid},
		{"unknown field", path, `{"version":1,"contents":"x"}`, 400, agentmem.EInvalid},
		{"id not editable", path, `{"version":1,"id":"01JD5Q8Z3K7M2N4P6R8T0V2X4Y"}`, 400, agentmem.EInvalid},
		{"stale version", path, `{"version":2,"content":"x"}`, 409, agentmem.EConflict},
		{"another agent", "/api/agents/koji/memories/" + m.ID, `{"version":1,"content":"x"}`, 404, agentmem.ENotFound},
		{"bad id", "/api/agents/nori/memories/nope", `{"version":1,"content":"x"}`, 400, agentmem.EInvalid},
		{"no body", path, ``, 400, agentmem.EInvalid},
		{"note too long", path, `{"version":1,"content":"x","note":"` + strings.Repeat("n", agentmem.MaxNoteBytes+1) + `"}`, 400, agentmem.EInvalid},
	}
	for _, tt := range bad {
		resp := a.do("PATCH", tt.target, tt.body)
		if resp.StatusCode != tt.status || errCode(t, resp.Body) != tt.code {
			t.Errorf("%s: got %d %s, want %d %s", tt.name, resp.StatusCode, resp.Body, tt.status, tt.code)
		}
	}
	resp := a.do("PATCH", path, `{"version":1,"content":"The CI runs on Node 20","pinned":true,"tags":[],"note":"upgraded"}`)
	if resp.StatusCode != 200 {
		t.Fatalf("patch: %d %s", resp.StatusCode, resp.Body)
	}
	got := decode[agentmem.Memory](t, resp)
	if got.ID != m.ID || got.CreatedAt != m.CreatedAt || got.Version != 2 || got.Content != "The CI runs on Node 20" || !got.Pinned || got.Tags != nil || got.UpdatedAt == "" {
		t.Errorf("patched: got %+v", got)
	}
	if again := a.do("PATCH", path, `{"version":1,"content":"The CI runs on Node 22"}`); again.StatusCode != 409 {
		t.Errorf("the same edit of version 1 again: got %d, want 409", again.StatusCode)
	}
	md := a.do("GET", "/api/agents/nori/memory.md?projectId=p", "")
	if !strings.Contains(md.Body, "Node 20") || strings.Contains(md.Body, "Node 18") {
		t.Errorf("memory.md after the edit:\n%s", md.Body)
	}
	if res := a.search("nori", "projectId=p&q=Node+20"); len(res.Results) != 1 || res.Results[0].Version != 2 {
		t.Errorf("search after the edit: %+v", res.Results)
	}
	if st := decode[agentmem.Stats](t, a.do("GET", "/api/agents/nori/stats?projectId=p", "")); st.Total != 1 {
		t.Errorf("total: %d, want 1", st.Total)
	}
}

func TestHistoryAndRestoreThroughTheAPI(t *testing.T) {
	a := newAPITest(t)
	m := decode[agentmem.Memory](t, a.do("POST", "/api/agents/nori/memories", `{"projectId":"p","type":"decision","content":"Use sqlc","rationale":"typed queries"}`))
	path := "/api/agents/nori/memories/" + m.ID
	for v := 1; v <= 3; v++ {
		if resp := a.do("PATCH", path, fmt.Sprintf(`{"version":%d,"content":"Use sqlc v%d"}`, v, v+1)); resp.StatusCode != 200 {
			t.Fatalf("patch %d: %d %s", v, resp.StatusCode, resp.Body)
		}
	}
	h := decode[agentmem.MemoryHistory](t, a.do("GET", path+"/history", ""))
	var versions []int
	for _, v := range h.Versions {
		versions = append(versions, v.Version)
	}
	if h.State != agentmem.StateLive || h.Current != 4 || !slices.Equal(versions, []int{4, 3, 2, 1}) || h.Versions[3].Memory.Content != "Use sqlc" {
		t.Fatalf("history: %+v", h)
	}
	if v := h.Versions[0]; v.By.Kind != agentmem.ByManual || v.By.Principal == "" || !slices.Equal(v.Changed, []string{"content"}) {
		t.Errorf("newest version: %+v", v)
	}
	page := decode[agentmem.MemoryHistory](t, a.do("GET", path+"/history?limit=2", ""))
	if len(page.Versions) != 2 || page.NextCursor == "" {
		t.Fatalf("first page: %+v", page)
	}
	rest := decode[agentmem.MemoryHistory](t, a.do("GET", path+"/history?limit=2&cursor="+page.NextCursor, ""))
	if len(rest.Versions) != 2 || rest.Versions[0].Version != 2 || rest.NextCursor != "" {
		t.Errorf("second page: %+v", rest)
	}
	bad := []struct {
		name, method, target, body string
		status                     int
	}{
		{"limit 0", "GET", path + "/history?limit=0", "", 400},
		{"other agent", "GET", "/api/agents/koji/memories/" + m.ID + "/history", "", 404},
		{"unknown memory", "GET", "/api/agents/nori/memories/01JD5Q8Z3K7M2N4P6R8T0V2X4Y/history", "", 404},
		{"version x", "POST", path + "/history/x/restore", "", 400},
		{"version 0", "POST", path + "/history/0/restore", "", 400},
		{"version 01", "POST", path + "/history/01/restore", "", 400},
		{"version 9", "POST", path + "/history/9/restore", "", 404},
		{"stale current", "POST", path + "/history/1/restore", `{"version":3}`, 409},
		{"unknown field", "POST", path + "/history/1/restore", `{"versions":4}`, 400},
	}
	for _, tt := range bad {
		if resp := a.do(tt.method, tt.target, tt.body); resp.StatusCode != tt.status {
			t.Errorf("%s: got %d %s, want %d", tt.name, resp.StatusCode, resp.Body, tt.status)
		}
	}
	resp := a.do("POST", path+"/history/1/restore", `{"version":4,"note":"v2 was a mistake"}`)
	if resp.StatusCode != 200 {
		t.Fatalf("restore: %d %s", resp.StatusCode, resp.Body)
	}
	if got := decode[agentmem.Memory](t, resp); got.ID != m.ID || got.Content != "Use sqlc" || got.Rationale != "typed queries" || got.Version != 5 {
		t.Errorf("restored: %+v", got)
	}
	h = decode[agentmem.MemoryHistory](t, a.do("GET", path+"/history", ""))
	if v := h.Versions[0]; v.Change != agentmem.ChangeRestored || v.RestoredFrom != 1 || v.By.Note != "v2 was a mistake" {
		t.Errorf("restore version: %+v", v)
	}
	if resp := a.do("POST", path+"/history/1/restore", ""); resp.StatusCode != 200 || decode[agentmem.Memory](t, resp).Version != 5 {
		t.Errorf("restoring what it holds: %d %s, want 200 at version 5", resp.StatusCode, resp.Body)
	}
}

func TestReplacesSupersedesTheOldMemoryEverywhere(t *testing.T) {
	a := newAPITest(t)
	old := decode[agentmem.Memory](t, a.do("POST", "/api/agents/nori/memories", `{"projectId":"p","type":"pattern","content":"CI test timeout","trigger":"the integration suite times out in CI","solution":"pass -timeout 20m to go test","confidence":0.9}`))
	resp := a.do("POST", "/api/agents/nori/memories", `{"projectId":"p","type":"pattern","content":"CI test timeout","trigger":"the integration suite times out in CI","solution":"pass -timeout 45m to go test","confidence":0.9,"replaces":"`+old.ID+`"}`)
	if resp.StatusCode != 201 {
		t.Fatalf("replace: %d %s", resp.StatusCode, resp.Body)
	}
	neu := decode[agentmem.CreateResult](t, resp)
	if !slices.Equal(neu.Supersedes, []string{old.ID}) || neu.Superseded == nil || neu.Superseded.ID != old.ID || neu.Superseded.SupersededBy != neu.ID {
		t.Errorf("created: %+v", neu)
	}
	list := decode[agentmem.MemoryPage](t, a.do("GET", "/api/agents/nori/memories?projectId=p", ""))
	if len(list.Memories) != 1 || list.Memories[0].ID != neu.ID {
		t.Errorf("list: %+v", list.Memories)
	}
	if md := a.do("GET", "/api/agents/nori/memory.md?projectId=p", ""); strings.Contains(md.Body, "20m") || !strings.Contains(md.Body, "45m") {
		t.Errorf("memory.md:\n%s", md.Body)
	}
	if res := a.search("nori", "projectId=p&q=timeout+20m"); len(res.Results) != 1 || res.Results[0].ID != neu.ID {
		t.Errorf("search: %+v", res.Results)
	}
	sug := decode[agentmem.Suggestions](t, a.do("GET", "/api/agents/nori/patterns/suggest?projectId=p&task=integration+suite+timeout", ""))
	if len(sug.Patterns) != 1 || sug.Patterns[0].ID != neu.ID {
		t.Errorf("suggestions: %+v", sug.Patterns)
	}
	gone := decode[agentmem.MemoryPage](t, a.do("GET", "/api/agents/nori/memories?projectId=p&state=superseded", ""))
	if len(gone.Memories) != 1 || gone.Memories[0].ID != old.ID || gone.Memories[0].SupersededBy != neu.ID {
		t.Errorf("state=superseded: %+v", gone.Memories)
	}
	if resp := a.do("GET", "/api/agents/nori/memories?projectId=p&state=deleted", ""); resp.StatusCode != 400 {
		t.Errorf("state=deleted: got %d, want 400", resp.StatusCode)
	}
	got := decode[agentmem.Memory](t, a.do("GET", "/api/agents/nori/memories/"+old.ID, ""))
	if got.State != agentmem.StateSuperseded || got.SupersededBy != neu.ID {
		t.Errorf("get the superseded: %+v", got)
	}
	if resp := a.do("PATCH", "/api/agents/nori/memories/"+old.ID, `{"version":2,"content":"x"}`); resp.StatusCode != 409 {
		t.Errorf("edit the superseded: %d, want 409", resp.StatusCode)
	}
	if resp := a.do("POST", "/api/agents/nori/memories", `{"projectId":"p","content":"again","replaces":"`+old.ID+`"}`); resp.StatusCode != 409 {
		t.Errorf("replace the superseded again: %d %s, want 409", resp.StatusCode, resp.Body)
	}
	if resp := a.do("POST", "/api/agents/nori/memories", `{"projectId":"p","content":"again","replaces":"nope"}`); resp.StatusCode != 400 {
		t.Errorf("replaces not an id: %d, want 400", resp.StatusCode)
	}
	if st := decode[agentmem.Stats](t, a.do("GET", "/api/agents/nori/stats?projectId=p", "")); st.Total != 1 {
		t.Errorf("total: %d, want 1", st.Total)
	}
	// Undo: restore the old one, delete the new one.
	if resp := a.do("POST", "/api/agents/nori/memories/"+old.ID+"/history/1/restore", ""); resp.StatusCode != 200 {
		t.Fatalf("restore: %d %s", resp.StatusCode, resp.Body)
	}
	if resp := a.do("DELETE", "/api/agents/nori/memories/"+neu.ID, ""); resp.StatusCode != 204 {
		t.Fatalf("delete the new: %d %s", resp.StatusCode, resp.Body)
	}
	list = decode[agentmem.MemoryPage](t, a.do("GET", "/api/agents/nori/memories?projectId=p", ""))
	if len(list.Memories) != 1 || list.Memories[0].ID != old.ID || list.Memories[0].Solution != "pass -timeout 20m to go test" {
		t.Errorf("after the undo: %+v", list.Memories)
	}
	if st := decode[agentmem.Stats](t, a.do("GET", "/api/agents/nori/stats?projectId=p", "")); st.Total != 1 {
		t.Errorf("total after the undo: %d, want 1", st.Total)
	}
}
