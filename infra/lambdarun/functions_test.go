package lambdarun_test

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/functions"
	"github.com/agentmem/agentmem/infra/lambdarun"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/aws/aws-lambda-go/events"
)

// root is the repository root, from this package's folder.
const root = "../.."

// sampleMemoryID is the memory id the sample events use; each replay swaps
// in the id of a memory it seeded.
const sampleMemoryID = "01JD5Q8Z3K7M2N4P6R8T0V2X4Y"

// functionDirs lists the function folders that exist (functions/*/main.go),
// so that functions landing later are covered without editing this test.
func functionDirs(t testing.TB) []string {
	t.Helper()
	mains, err := filepath.Glob(filepath.Join(root, "functions", "*", "main.go"))
	if err != nil || len(mains) == 0 {
		t.Fatalf("no functions/*/main.go (%v)", err)
	}
	var out []string
	for _, m := range mains {
		out = append(out, filepath.Base(filepath.Dir(m)))
	}
	sort.Strings(out)
	return out
}

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
)

// bootstrap returns the host-arch bootstrap binary of fn. The first call
// builds every function's, in one go build (which links them in
// parallel), into a temporary folder kept for the test binary's life.
func bootstrap(t testing.TB, fn string) string {
	t.Helper()
	fns := functionDirs(t)
	buildOnce.Do(func() {
		if buildDir, buildErr = os.MkdirTemp("", "agentmem-bootstrap-"); buildErr != nil {
			return
		}
		var pkgs []string
		for _, f := range fns {
			pkgs = append(pkgs, "./"+filepath.Join(root, "functions", f))
		}
		buildErr = goBuild(buildDir+string(filepath.Separator), pkgs...)
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(buildDir, fn)
}

// sampleEvent is one file of events/<fn>/.
type sampleEvent struct {
	file  string
	raw   []byte
	route *routes.Route // nil for non-API events (schedule, SQS)
	order int
}

// sampleEvents reads events/<fn>/*.json: API events in route-table order
// (so that a Put comes before its Get and Delete), then the others by name.
func sampleEvents(t testing.TB, fn string) []sampleEvent {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "events", fn, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []sampleEvent
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ev := sampleEvent{file: filepath.Base(f), raw: raw, order: len(routes.All)}
		var probe struct {
			RouteKey string `json:"routeKey"`
		}
		json.Unmarshal(raw, &probe)
		for i, r := range routes.All {
			if probe.RouteKey != "" && r.Key() == probe.RouteKey && string(r.Function) == fn {
				ev.route, ev.order = &routes.All[i], i
			}
		}
		if probe.RouteKey != "" && ev.route == nil {
			t.Errorf("%s/%s: route key %q is not a route of %s", fn, ev.file, probe.RouteKey, fn)
			continue
		}
		out = append(out, ev)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].order != out[j].order {
			return out[i].order < out[j].order
		}
		return out[i].file < out[j].file
	})
	return out
}

// TestFunctionsAnswerEvents starts each function's bootstrap binary under
// the Runtime API stand-in, over DynamoDB Local, and feeds it every
// events/<fn>/*.json. API events must answer below 500 and exactly what
// the same handler answers in process (functions.API) on an identically
// seeded store, whose statuses functions/events_test.go pins; other events
// (the dream schedule and SQS batch) must succeed without batch item
// failures. The LLM is an OpenAI-compatible stand-in and SQS a JSON-protocol
// stand-in, both on loopback.
func TestFunctionsAnswerEvents(t *testing.T) {
	t.Parallel()
	llmURL := fakeLLM(t)
	sqsURL, sent := fakeSQS(t)
	t.Cleanup(func() { t.Logf("messages sent to the SQS stand-in: %d", sent()) })
	for _, fn := range functionDirs(t) {
		t.Run(fn, func(t *testing.T) {
			t.Parallel()
			bin := bootstrap(t, fn)
			binStore, refStore := dynamotest.NewStore(t), dynamotest.NewStore(t)
			settings := map[string]string{
				"AGENTMEM_LLM":          "openai",
				"AGENTMEM_LLM_ENDPOINT": llmURL + "/v1",
				"AGENTMEM_LLM_MODEL":    "stand-in",
				"AGENTMEM_LLM_API_KEY":  "test",
				"DREAM_QUEUE_URL":       sqsURL + "/000000000000/agentmem-dream",
				"AWS_ENDPOINT_URL_SQS":  sqsURL,
				"LOG_FORMAT":            "json",
			}
			env := dynamotest.Env(binStore.Config())
			for k, v := range settings {
				env = append(env, k+"="+v)
			}
			rt, err := lambdarun.Start(lambdarun.Options{Binary: bin, Env: env, FunctionName: fn})
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				rt.Close()
				if t.Failed() {
					t.Logf("%s logs:\n%s", fn, rt.Logs())
				}
			}()

			ref := inProcess(t, fn, refStore, settings)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			evs := sampleEvents(t, fn)
			if len(evs) == 0 {
				t.Fatalf("no events in events/%s", fn)
			}
			for _, ev := range evs {
				t.Run(strings.TrimSuffix(ev.file, ".json"), func(t *testing.T) {
					if ev.route == nil {
						checkNonAPI(t, ctx, rt, ev)
						return
					}
					binEvent := seedEvent(t, binStore, ev.raw)
					res, err := rt.Invoke(ctx, binEvent)
					if err != nil {
						t.Fatalf("invoke: %v", err)
					}
					if res.Err != nil {
						t.Fatalf("function error %v: an API function must answer with a status", res.Err)
					}
					var got events.APIGatewayV2HTTPResponse
					if err := json.Unmarshal(res.Payload, &got); err != nil {
						t.Fatalf("response %s: %v", res.Payload, err)
					}
					if got.StatusCode < 200 || got.StatusCode >= 500 {
						t.Errorf("status %d %s, want 2xx-4xx", got.StatusCode, got.Body)
					}
					if got.StatusCode >= 400 {
						var body struct {
							Error struct{ Code, Message string } `json:"error"`
						}
						if json.Unmarshal([]byte(got.Body), &body) != nil || body.Error.Code == "" {
							t.Errorf("status %d body %s: want {\"error\":{\"code\",\"message\"}}", got.StatusCode, got.Body)
						}
					}
					if ref != nil {
						var refEvent events.APIGatewayV2HTTPRequest
						if err := json.Unmarshal(seedEvent(t, refStore, ev.raw), &refEvent); err != nil {
							t.Fatal(err)
						}
						want, err := ref(ctx, refEvent)
						if err != nil {
							t.Fatalf("in-process handler: %v", err)
						}
						if got.StatusCode != want.StatusCode {
							t.Errorf("binary answered %d %s; the in-process handler answered %d %s", got.StatusCode, got.Body, want.StatusCode, want.Body)
						}
					}
				})
			}
		})
	}
}

// checkNonAPI feeds a schedule or SQS event: it must succeed, and an SQS
// batch must report no item failures.
func checkNonAPI(t *testing.T, ctx context.Context, rt *lambdarun.Runtime, ev sampleEvent) {
	res, err := rt.Invoke(ctx, ev.raw)
	if err != nil {
		t.Fatalf("invoke: %v", err)
	}
	if res.Err != nil {
		t.Fatalf("function error: %v", res.Err)
	}
	var batch events.SQSEventResponse
	if json.Unmarshal(res.Payload, &batch) == nil && len(batch.BatchItemFailures) > 0 {
		t.Errorf("batch item failures %v in %s", batch.BatchItemFailures, res.Payload)
	}
}

// inProcess returns fn's handler from functions.API, built from the same
// settings over its own store, or nil (with an error) when fn serves
// routes but is not registered.
func inProcess(t *testing.T, fn string, store *dynamostore.Store, settings map[string]string) func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	t.Helper()
	newFn, ok := functions.API[routes.Function(fn)]
	if !ok {
		if len(routes.For(routes.Function(fn))) > 0 {
			t.Errorf("function %s serves routes but is not in functions.API", fn)
		}
		return nil
	}
	cfg := store.Config()
	deps, err := lambdamain.DepsFromEnv(context.Background(), func(k string) string { return settings[k] },
		slog.New(slog.NewTextHandler(io.Discard, nil)), &cfg)
	if err != nil {
		t.Fatal(err)
	}
	h, err := newFn(deps)
	if err != nil {
		t.Fatal(err)
	}
	return h.Handle
}

// seedEvent gives the event's agent a personality and a memory in the
// event's project, and returns the event with the sample memory id
// replaced by the seeded one.
func seedEvent(t *testing.T, st *dynamostore.Store, raw []byte) []byte {
	t.Helper()
	var ev events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	agent := ev.PathParameters["agentName"]
	if agent == "" {
		return raw
	}
	project := ev.QueryStringParameters["projectId"]
	if project == "" {
		var body struct {
			ProjectID string `json:"projectId"`
		}
		json.Unmarshal([]byte(ev.Body), &body)
		project = body.ProjectID
	}
	if project == "" {
		project = "checkout-service"
	}
	ctx := context.Background()
	if _, _, err := st.PutPersonality(ctx, agentmem.Personality{AgentName: agent, DisplayName: "Sample"}, nil); err != nil {
		t.Fatal(err)
	}
	m, err := st.CreateMemory(ctx, agentmem.Memory{AgentName: agent, ProjectID: project, Content: "sample", Source: agentmem.SourceManual})
	if err != nil {
		t.Fatal(err)
	}
	return []byte(strings.ReplaceAll(string(raw), sampleMemoryID, m.ID))
}

// fakeLLM is an OpenAI-compatible chat completions endpoint answering in
// the formats the prompts ask for: the Deep Dream sections when the prompt
// mentions [DREAM], else the extraction JSON.
func fakeLLM(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		answer := `{"success": true, "summary": "The run added a retry to the webhook handler.", "learnings": [{"type": "finding", "content": "Webhook handlers must be idempotent: the provider retries three times."}]}`
		for _, m := range req.Messages {
			if strings.Contains(m.Content, "<daily_records>") {
				answer = `{"operations": [{"op": "add", "type": "finding", "content": "Webhook handlers must be idempotent: the provider retries three times.", "cite": ["r1"]}], "dream": "A quiet night: one finding kept."}`
			}
		}
		json.NewEncoder(w).Encode(map[string]any{
			"model":   "stand-in",
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": answer}, "finish_reason": "stop"}},
			"usage":   map[string]int{"prompt_tokens": 10, "completion_tokens": 10},
		})
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// fakeSQS accepts SendMessage and SendMessageBatch in SQS's JSON protocol
// (what aws-sdk-go-v2 speaks), with the MD5 digests the SDK verifies.
func fakeSQS(t *testing.T) (url string, sent func() int) {
	var mu sync.Mutex
	count := 0
	digest := func(s string) string { sum := md5.Sum([]byte(s)); return hex.EncodeToString(sum[:]) }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		var req struct {
			MessageBody string
			Entries     []struct{ Id, MessageBody string }
		}
		json.NewDecoder(r.Body).Decode(&req)
		mu.Lock()
		defer mu.Unlock()
		switch r.Header.Get("X-Amz-Target") {
		case "AmazonSQS.SendMessage":
			count++
			json.NewEncoder(w).Encode(map[string]string{"MessageId": fmt.Sprint("m-", count), "MD5OfMessageBody": digest(req.MessageBody)})
		case "AmazonSQS.SendMessageBatch":
			var ok []map[string]string
			for _, e := range req.Entries {
				count++
				ok = append(ok, map[string]string{"Id": e.Id, "MessageId": fmt.Sprint("m-", count), "MD5OfMessageBody": digest(e.MessageBody)})
			}
			json.NewEncoder(w).Encode(map[string]any{"Successful": ok, "Failed": []any{}})
		default:
			w.WriteHeader(http.StatusBadRequest)
			json.NewEncoder(w).Encode(map[string]string{"__type": "com.amazonaws.sqs#InvalidAction", "message": "not supported by the stand-in: " + r.Header.Get("X-Amz-Target")})
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() int { mu.Lock(); defer mu.Unlock(); return count }
}
