package apiclient_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// TestForwardSignsLikeTheClientAndPassesAnswersOn relays requests of
// every shape through Forward and checks, as API Gateway would, that each
// arrives signed as the SDK's signer signs it (headers such as If-Match
// and Idempotency-Key included), with its escaped path, query and body
// intact, and that error answers come back as the API wrote them.
func TestForwardSignsLikeTheClientAndPassesAnswersOn(t *testing.T) {
	t.Parallel()
	var last received
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		last = received{r.Method, r.Host, r.RequestURI, r.Header.Clone(), body}
		if r.Header.Get("If-Match") == "stale" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusConflict)
			_, _ = w.Write([]byte(`{"error":{"code":"conflict","message":"the memory changed"}}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	defer srv.Close()
	creds := aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", SessionToken: "tok"}
	at := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	signer := &apiclient.SigV4{
		Credentials: credentials.StaticCredentialsProvider{Value: creds},
		Region:      "eu-west-1", Service: apiclient.ServiceExecuteAPI, Signer: v4.NewSigner(),
		Now: func() time.Time { return at },
	}
	c := apiclient.NewWithAuth(apiclient.Config{}, mustURL(t, srv.URL+"/prod"), signer)
	tests := []struct {
		name       string
		req        apiclient.ForwardRequest
		wantURI    string
		wantStatus int
		wantSigned []string
	}{
		{"get with a query", apiclient.ForwardRequest{Method: "GET", Path: "/api/agents/nori/memories", RawQuery: "projectId=p%201&type=finding"},
			"/prod/api/agents/nori/memories?projectId=p%201&type=finding", 200, nil},
		{"post with an idempotency key", apiclient.ForwardRequest{Method: "POST", Path: "/api/agents/nori/memories",
			Header: http.Header{"Content-Type": {"application/json"}, "Idempotency-Key": {"k-1"}}, Body: []byte(`{"projectId":"p","content":"é <&>"}`)},
			"/prod/api/agents/nori/memories", 200, []string{"content-type", "idempotency-key"}},
		{"escaped path segment", apiclient.ForwardRequest{Method: "PUT", Path: "/api/projects/p/sessions/s%201/context/k%3Ax",
			Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"value":"v"}`)},
			"/prod/api/projects/p/sessions/s%201/context/k%3Ax", 200, []string{"content-type"}},
		{"error answer passed on", apiclient.ForwardRequest{Method: "DELETE", Path: "/api/agents/nori/memories/01J", Header: http.Header{"If-Match": {"stale"}}},
			"/prod/api/agents/nori/memories/01J", 409, []string{"if-match"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := c.Forward(context.Background(), tt.req)
			if err != nil {
				t.Fatalf("Forward: %v", err)
			}
			if resp.Status != tt.wantStatus {
				t.Errorf("status: got %d, want %d (%s)", resp.Status, tt.wantStatus, resp.Body)
			}
			if tt.wantStatus == 409 && !strings.Contains(string(resp.Body), `"code":"conflict"`) {
				t.Errorf("error body: got %s, want the API's envelope", resp.Body)
			}
			if last.uri != tt.wantURI || last.method != tt.req.Method || string(last.body) != string(tt.req.Body) {
				t.Errorf("server got %s %s %q, want %s %s %q", last.method, last.uri, last.body, tt.req.Method, tt.wantURI, tt.req.Body)
			}
			auth := last.header.Get("Authorization")
			if !strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260301/eu-west-1/execute-api/aws4_request, SignedHeaders=") {
				t.Fatalf("Authorization %q has the wrong scope", auth)
			}
			signed := strings.Split(between(auth, "SignedHeaders=", ","), ";")
			for _, h := range tt.wantSigned {
				if !contains(signed, h) {
					t.Errorf("%s is not signed: %v", h, signed)
				}
			}
			if want := sdkAuthorization(t, last, signed, creds, apiclient.PayloadHash(last.body), at); auth != want {
				t.Errorf("Authorization:\ngot  %s\nwant %s", auth, want)
			}
		})
	}
}
