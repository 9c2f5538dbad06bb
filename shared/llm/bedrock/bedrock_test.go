package bedrock_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/awsconfig"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/llm/bedrock"
	"github.com/agentmem/agentmem/shared/llm/llmtest"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
)

const bedrockModel = "us.anthropic.claude-haiku-4-5-20251001-v1:0"

// bedrockServer answers like the Bedrock runtime endpoint: Converse JSON
// on success, and on failure the status, the x-amzn-ErrorType header and
// the {"message":...} body the service sends. It records the request.
func bedrockServer(t *testing.T, status int, errorType, body string, got *map[string]any) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if want := "/model/" + bedrockModel + "/converse"; r.Method != http.MethodPost || r.URL.Path != want {
			t.Errorf("got %s %s, want POST %s", r.Method, r.URL.Path, want)
		}
		if got != nil {
			*got = llmtest.RecordRequest(t, r, "authorization", "x-amz-date", "content-type")
			(*got)["escaped-path"] = r.URL.EscapedPath()
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Amzn-Requestid", "8f2e1b9c-2d4a-4d53-9d43-6a1f0c7e5b21")
		if errorType != "" {
			w.Header().Set("X-Amzn-Errortype", errorType+":http://internal.amazon.com/coral/com.amazon.bedrock/")
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func newBedrock(t *testing.T, endpoint string, timeout time.Duration) *bedrock.Client {
	t.Helper()
	c, err := bedrock.New(aws.Config{},
		llm.Config{Provider: llm.ProviderBedrock, Model: bedrockModel, Region: "us-east-1", Endpoint: endpoint, MaxTokens: 300, Timeout: timeout},
		func(o *bedrockruntime.Options) {
			o.Credentials = credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "")
		})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestBedrockConverseSendsAndParsesTheWireFormat(t *testing.T) {
	t.Parallel()
	var got map[string]any
	srv := bedrockServer(t, 200, "", `{
	  "output": {"message": {"role": "assistant", "content": [{"text": "{\"learnings\":"}, {"text": "[]}"}]}},
	  "stopReason": "end_turn",
	  "usage": {"inputTokens": 42, "outputTokens": 7, "totalTokens": 49},
	  "metrics": {"latencyMs": 812}
	}`, &got)
	resp, err := newBedrock(t, srv.URL, 0).Complete(context.Background(), llm.Request{System: "be brief", Prompt: "hello"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != `{"learnings":[]}` || resp.InputTokens != 42 || resp.OutputTokens != 7 || resp.StopReason != "end_turn" || resp.Model != bedrockModel {
		t.Errorf("got %+v", resp)
	}
	if p, _ := got["escaped-path"].(string); !strings.Contains(p, "v1%3A0/converse") {
		t.Errorf("path %q: the model id's ':' is not escaped", p)
	}
	auth, _ := got["authorization"].(string)
	if !strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/") || !strings.Contains(auth, "/us-east-1/bedrock/aws4_request") || got["x-amz-date"] == "" {
		t.Errorf("not SigV4-signed for bedrock in us-east-1: %q", auth)
	}
	if got["content-type"] != "application/json" {
		t.Errorf("content-type: got %v", got["content-type"])
	}
	want := map[string]any{
		"messages":        []any{map[string]any{"role": "user", "content": []any{map[string]any{"text": "hello"}}}},
		"system":          []any{map[string]any{"text": "be brief"}},
		"inferenceConfig": map[string]any{"maxTokens": float64(300), "temperature": float64(0)},
	}
	for k, v := range want {
		if g, _ := json.Marshal(got[k]); string(g) != llmtest.MustJSON(t, v) {
			t.Errorf("request %s: got %s, want %s", k, g, llmtest.MustJSON(t, v))
		}
	}
}

func TestBedrockFailuresAreClassified(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		status    int
		errorType string
		body      string
		kind      llm.Kind
	}{
		{"throttled", 429, "ThrottlingException", `{"message":"Too many requests, please wait before trying again."}`, llm.KindThrottled},
		{"quota", 400, "ServiceQuotaExceededException", `{"message":"Your request exceeded your service quota."}`, llm.KindThrottled},
		{"model not ready", 429, "ModelNotReadyException", `{"message":"Model is not ready"}`, llm.KindThrottled},
		{"access denied", 403, "AccessDeniedException", `{"message":"You don't have access to the model with the specified model ID."}`, llm.KindAuth},
		{"bad token", 403, "UnrecognizedClientException", `{"message":"The security token included in the request is invalid."}`, llm.KindAuth},
		{"validation", 400, "ValidationException", `{"message":"The provided model identifier is invalid."}`, llm.KindBadRequest},
		{"not found", 404, "ResourceNotFoundException", `{"message":"Model not found"}`, llm.KindBadRequest},
		{"model timeout", 408, "ModelTimeoutException", `{"message":"Model has timed out in processing the request."}`, llm.KindTimeout},
		{"internal", 500, "InternalServerException", `{"message":"Internal server error"}`, llm.KindServer},
		{"unavailable", 503, "ServiceUnavailableException", `{"message":"Service unavailable"}`, llm.KindServer},
		{"model error", 424, "ModelErrorException", `{"message":"The model returned an error"}`, llm.KindServer},
		{"unknown code", 502, "", `{"message":"bad gateway"}`, llm.KindServer},
		{"a message of a megabyte", 400, "ValidationException", `{"message":"` + strings.Repeat("é", 512<<10) + `"}`, llm.KindBadRequest},
		{"no text", 200, "", `{"output":{"message":{"role":"assistant","content":[]}},"stopReason":"max_tokens","usage":{"inputTokens":1,"outputTokens":0,"totalTokens":1}}`, llm.KindEmpty},
		{"no output", 200, "", `{"stopReason":"end_turn"}`, llm.KindMalformed},
		{"not json", 200, "", `<html>proxy error</html>`, llm.KindMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := bedrockServer(t, tt.status, tt.errorType, tt.body, nil)
			_, err := newBedrock(t, srv.URL, 0).Complete(context.Background(), llm.Request{Prompt: "x"})
			llmtest.CheckFailure(t, err, llm.ProviderBedrock, tt.kind, tt.status, 0)
			llmtest.CheckMessageBounded(t, err)
			if tt.errorType != "" && !strings.Contains(err.Error(), tt.errorType) {
				t.Errorf("message %q does not name %s", err, tt.errorType)
			}
		})
	}
}

func TestNewBedrockNeedsAModel(t *testing.T) {
	t.Parallel()
	if _, err := bedrock.New(aws.Config{}, llm.Config{Region: "us-east-1"}); err == nil {
		t.Error("no model: no error")
	}
}

// TestNewTakesTheProcessAWSConfiguration: the client signs in the
// configured region, else the AWS configuration's; it makes each call
// once even when the AWS configuration carries the process's retryer,
// since llm.Retry is the one retry policy of model calls.
func TestNewTakesTheProcessAWSConfiguration(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	var regions []string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		mu.Lock()
		regions = append(regions, strings.Split(r.Header.Get("Authorization"), "/")[2])
		mu.Unlock()
		w.Header().Set("X-Amzn-Errortype", "InternalServerException:http://internal.amazon.com/coral/com.amazon.bedrock/")
		w.WriteHeader(500)
		io.WriteString(w, `{"message":"try again"}`)
	}))
	defer srv.Close()
	awsCfg := aws.Config{Region: "eu-central-1", Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", ""),
		Retryer: func() aws.Retryer { return awsconfig.NewRetryer() }}
	tests := []struct {
		region, want string
	}{
		{"", "eu-central-1"},
		{"us-west-2", "us-west-2"},
	}
	for _, tt := range tests {
		calls.Store(0)
		c, err := bedrock.New(awsCfg, llm.Config{Model: bedrockModel, Region: tt.region, Endpoint: srv.URL})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Complete(context.Background(), llm.Request{Prompt: "x"})
		if llm.KindOf(err) != llm.KindServer || calls.Load() != 1 {
			t.Errorf("region %q: got %v after %d calls, want one failed call", tt.region, err, calls.Load())
		}
		mu.Lock()
		if got := regions[len(regions)-1]; got != tt.want {
			t.Errorf("region %q: signed for %q, want %q", tt.region, got, tt.want)
		}
		mu.Unlock()
	}
	if _, err := bedrock.New(aws.Config{}, llm.Config{Model: bedrockModel}); err == nil || !strings.Contains(err.Error(), "AWS_REGION") {
		t.Errorf("no region anywhere: got %v, want an error naming AWS_REGION", err)
	}
}
