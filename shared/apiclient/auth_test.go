package apiclient_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// TestSigV4KnownAnswer signs AWS's own SigV4 test vector "get-vanilla"
// (from the Signature Version 4 test suite) through the client's signer.
func TestSigV4KnownAnswer(t *testing.T) {
	t.Parallel()
	s := &apiclient.SigV4{
		Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", ""),
		Region:      "us-east-1",
		Service:     "service",
		Signer:      v4.NewSigner(),
		Now:         func() time.Time { return time.Date(2015, 8, 30, 12, 36, 0, 0, time.UTC) },
	}
	req, err := http.NewRequest("GET", "https://example.amazonaws.com/", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Authorize(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	want := "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, " +
		"SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
	if got := req.Header.Get("Authorization"); got != want {
		t.Errorf("Authorization:\ngot  %s\nwant %s", got, want)
	}
	if got, want := req.Header.Get("X-Amz-Date"), "20150830T123600Z"; got != want {
		t.Errorf("X-Amz-Date: got %q, want %q", got, want)
	}
}

// received is a request as the server saw it.
type received struct {
	method, host, uri string
	header            http.Header
	body              []byte
}

// TestClientSignatureMatchesSDKSigner sends real calls through the client
// and checks, as API Gateway would, that each Authorization header is what
// the SDK's v4.Signer computes for the request the server received (same
// credentials, time, region, service execute-api, and the SHA-256 of the
// body received as payload hash).
func TestClientSignatureMatchesSDKSigner(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []received
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, received{r.Method, r.Host, r.RequestURI, r.Header.Clone(), body})
		mu.Unlock()
		switch r.Method {
		case "DELETE":
			w.WriteHeader(http.StatusNoContent)
		case "POST":
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte(`{"id":"01J0000000000000000000000A","content":"x"}`))
		default:
			_, _ = w.Write([]byte(`{"memories":[]}`))
		}
	}))
	defer srv.Close()

	creds := aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", SessionToken: "session-token-from-the-task-role"}
	at := time.Date(2026, 2, 1, 10, 30, 0, 0, time.UTC)
	signer := &apiclient.SigV4{
		Credentials: credentials.StaticCredentialsProvider{Value: creds},
		Region:      "eu-west-1", Service: apiclient.ServiceExecuteAPI, Signer: v4.NewSigner(),
		Now: func() time.Time { return at },
	}
	c := apiclient.NewWithAuth(apiclient.Config{}, mustURL(t, srv.URL+"/prod"), signer)
	ctx := context.Background()
	if _, err := c.CreateMemory(ctx, "nori", agentmem.MemoryInput{ProjectID: "p1", Content: "Webhooks retry \"3\" times <&> é"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListMemories(ctx, "nori", apiclient.ListOptions{ProjectID: "p 1/x", Type: agentmem.TypeDecision, Cursor: "a+b=="}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteMemories(ctx, "nori", "p1"); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("server got %d requests, want 3", len(got))
	}
	for _, r := range got {
		t.Run(r.method, func(t *testing.T) {
			auth := r.header.Get("Authorization")
			if !strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260201/eu-west-1/execute-api/aws4_request, SignedHeaders=") {
				t.Fatalf("Authorization %q has the wrong scope", auth)
			}
			if got, want := r.header.Get("X-Amz-Security-Token"), creds.SessionToken; got != want {
				t.Errorf("X-Amz-Security-Token: got %q, want %q", got, want)
			}
			signed := strings.Split(between(auth, "SignedHeaders=", ","), ";")
			if r.method == "POST" && !contains(signed, "content-type") {
				t.Errorf("content-type is not signed: %v", signed)
			}
			if !strings.HasPrefix(r.uri, "/prod/api/agents/nori/") {
				t.Errorf("request URI %q lost the stage prefix", r.uri)
			}
			if want := sdkAuthorization(t, r, signed, creds, apiclient.PayloadHash(r.body), at); auth != want {
				t.Errorf("Authorization:\ngot  %s\nwant %s", auth, want)
			}
			// The check can fail: another payload hash gives another signature.
			if other := sdkAuthorization(t, r, signed, creds, apiclient.PayloadHash(append(r.body, ' ')), at); auth == other {
				t.Errorf("signature does not depend on the payload")
			}
		})
	}
}

// sdkAuthorization rebuilds the received request with the headers it
// claims to have signed and signs it with the SDK's signer.
func sdkAuthorization(t *testing.T, r received, signed []string, creds aws.Credentials, payloadHash string, at time.Time) string {
	t.Helper()
	req, err := http.NewRequest(r.method, "http://"+r.host+r.uri, bytes.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = http.Header{}
	for _, h := range signed {
		if h != "host" && h != "content-length" && h != "x-amz-date" && h != "x-amz-security-token" {
			req.Header[http.CanonicalHeaderKey(h)] = r.header.Values(h)
		}
	}
	if err := v4.NewSigner().SignHTTP(context.Background(), creds, req, payloadHash, "execute-api", "eu-west-1", at); err != nil {
		t.Fatal(err)
	}
	return req.Header.Get("Authorization")
}

func TestRegionFromHost(t *testing.T) {
	t.Parallel()
	tests := []struct{ host, want string }{
		{"abc123.execute-api.eu-west-1.amazonaws.com", "eu-west-1"},
		{"abc123.execute-api.cn-north-1.amazonaws.com.cn", "cn-north-1"},
		{"abc123-vpce-0a1b.execute-api.us-east-2.vpce.amazonaws.com", "us-east-2"},
		{"memory.example.com", ""},
		{"127.0.0.1", ""},
		{"execute-api.eu-west-1.amazonaws.com.evil.example", ""},
	}
	for _, tt := range tests {
		if got := apiclient.RegionFromHost(tt.host); got != tt.want {
			t.Errorf("RegionFromHost(%q): got %q, want %q", tt.host, got, tt.want)
		}
	}
}

func TestNewSigV4Region(t *testing.T) {
	isolateAWSConfig(t)
	t.Setenv("AWS_REGION", "us-east-1")
	tests := []struct{ host, explicit, want string }{
		{"abc.execute-api.eu-west-1.amazonaws.com", "", "eu-west-1"},
		{"abc.execute-api.eu-west-1.amazonaws.com", "ap-south-1", "ap-south-1"},
		{"memory.example.com", "", "us-east-1"},
	}
	for _, tt := range tests {
		s, err := apiclient.NewSigV4(loadAWSConfig(t), tt.host, tt.explicit)
		if err != nil {
			t.Fatal(err)
		}
		if s.Region != tt.want || s.Service != "execute-api" {
			t.Errorf("host %q, region %q: got region %q service %q, want %q execute-api", tt.host, tt.explicit, s.Region, s.Service, tt.want)
		}
	}
	t.Setenv("AWS_REGION", "")
	if _, err := apiclient.NewSigV4(loadAWSConfig(t), "memory.example.com", ""); err == nil || !strings.Contains(err.Error(), "AWS_REGION") {
		t.Errorf("no region anywhere: got %v, want an error naming AWS_REGION", err)
	}
}

// loadAWSConfig loads the AWS configuration as the environment sets it
// now (awsconfig.Load keeps the first one of the process).
func loadAWSConfig(t *testing.T) aws.Config {
	t.Helper()
	cfg, err := config.LoadDefaultConfig(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// isolateAWSConfig keeps the developer's AWS files and the instance
// metadata service out of a test.
func isolateAWSConfig(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	for k, v := range map[string]string{
		"AWS_CONFIG_FILE": dir + "/config", "AWS_SHARED_CREDENTIALS_FILE": dir + "/credentials",
		"AWS_EC2_METADATA_DISABLED": "true", "AWS_PROFILE": "", "AWS_DEFAULT_REGION": "",
		"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_SESSION_TOKEN": "",
		"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": "", "AWS_CONTAINER_CREDENTIALS_FULL_URI": "",
		"AWS_WEB_IDENTITY_TOKEN_FILE": "", "AWS_ROLE_ARN": "",
	} {
		t.Setenv(k, v)
	}
}

func between(s, from, to string) string {
	_, rest, _ := strings.Cut(s, from)
	v, _, _ := strings.Cut(rest, to)
	return v
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
