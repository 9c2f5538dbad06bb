package console_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/cmd/agentmem/console"
	"github.com/agentmem/agentmem/functions/apitest"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

func TestMain(m *testing.M) { os.Exit(dynamotest.Main(m)) }

// The caller's credentials in these tests, and the API's region.
var (
	testCreds  = aws.Credentials{AccessKeyID: "AKIDCONSOLETEST", SecretAccessKey: "console-secret-key", SessionToken: "console-session-token"}
	testRegion = "eu-west-1"
)

// seen is one request as the API received it, with the verdict of the
// signature check.
type seen struct {
	Method, URI string
	Header      http.Header
	Body        []byte
	SignatureOK bool
	Why         string
}

// gateway stands in for API Gateway's IAM authorization in front of the
// real API: it recomputes each request's SigV4 signature with the SDK's
// signer (the headers the request says it signed, its X-Amz-Date, the
// SHA-256 of the body received) and answers 403 as API Gateway does when
// it differs. It records every request.
type gateway struct {
	mu   sync.Mutex
	reqs []seen
}

func (g *gateway) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		ok, why := verifySigV4(r, body)
		g.mu.Lock()
		g.reqs = append(g.reqs, seen{r.Method, r.RequestURI, r.Header.Clone(), body, ok, why})
		g.mu.Unlock()
		if !ok {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"message":"Forbidden"}`))
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

func (g *gateway) requests() []seen {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]seen(nil), g.reqs...)
}

func verifySigV4(r *http.Request, body []byte) (bool, string) {
	auth := r.Header.Get("Authorization")
	prefix := fmt.Sprintf("AWS4-HMAC-SHA256 Credential=%s/", testCreds.AccessKeyID)
	if !strings.HasPrefix(auth, prefix) {
		return false, "no SigV4 Authorization header: " + auth
	}
	at, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil {
		return false, "bad X-Amz-Date"
	}
	if !strings.Contains(auth, "/"+testRegion+"/execute-api/aws4_request") {
		return false, "wrong scope: " + auth
	}
	_, rest, _ := strings.Cut(auth, "SignedHeaders=")
	signed, _, _ := strings.Cut(rest, ",")
	req, err := http.NewRequest(r.Method, "http://"+r.Host+r.RequestURI, bytes.NewReader(body))
	if err != nil {
		return false, err.Error()
	}
	req.Header = http.Header{}
	for _, h := range strings.Split(signed, ";") {
		if h != "host" && h != "content-length" && h != "x-amz-date" && h != "x-amz-security-token" {
			req.Header[http.CanonicalHeaderKey(h)] = r.Header.Values(h)
		}
	}
	if err := v4.NewSigner().SignHTTP(context.Background(), testCreds, req, apiclient.PayloadHash(body), "execute-api", testRegion, at); err != nil {
		return false, err.Error()
	}
	if want := req.Header.Get("Authorization"); want != auth {
		return false, fmt.Sprintf("signature differs:\ngot  %s\nwant %s", auth, want)
	}
	if r.Header.Get("X-Amz-Security-Token") != testCreds.SessionToken {
		return false, "no session token"
	}
	return true, ""
}

// env is the API behind the gateway and a console in front of it.
type env struct {
	api     *apitest.Server
	gw      *gateway
	client  *apiclient.Client // signed, as the CLI's
	console *console.Server
	url     string // the console's base URL, http://127.0.0.1:port
}

// newEnv starts the real API (over DynamoDB Local) behind the SigV4
// gateway, and a console relaying to it signed with the test's
// credentials, exactly as `agentmem console` builds it.
func newEnv(t *testing.T, model llm.Client) *env {
	t.Helper()
	gw := &gateway{}
	api := apitest.Start(t, apitest.Options{Wrap: func(next http.Handler) http.Handler { return gw.wrap(stripStage(next)) }, LLM: model})
	base, err := url.Parse(api.URL + "/prod")
	if err != nil {
		t.Fatal(err)
	}
	// API Gateway serves the API under a stage prefix, which the test's
	// gateway strips after checking the signature of the whole path.
	signer := &apiclient.SigV4{Credentials: credentials.StaticCredentialsProvider{Value: testCreds}, Region: testRegion, Service: apiclient.ServiceExecuteAPI, Signer: v4.NewSigner()}
	client := apiclient.NewWithAuth(apiclient.Config{UserAgent: "agentmem-cli/test"}, base, signer)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := console.New(console.Config{Client: client, Addr: ln.Addr().String(), Info: console.Info{APIURL: api.URL, Auth: "sigv4", Version: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv}
	go func() { _ = hs.Serve(ln) }()
	t.Cleanup(func() { _ = hs.Close() })
	return &env{api: api, gw: gw, client: client, console: srv, url: "http://" + ln.Addr().String()}
}

// stripStage removes API Gateway's stage prefix before the test API.
func stripStage(next http.Handler) http.Handler {
	return http.StripPrefix("/prod", next)
}

// browser is an HTTP client that behaves as the console's page: it
// logged in with the run's token and sends the console's header and
// its own origin.
func (e *env) browser(t *testing.T) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Jar: jar}
	resp, err := c.Get(e.console.URL())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("login: got %d", resp.StatusCode)
	}
	return c
}

// call makes a page's call through the console.
func (e *env) call(t *testing.T, c *http.Client, method, target string, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.url+target, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(console.CallerHeader, "1")
	req.Header.Set("Origin", e.url)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// raw sends request bytes as written (no client normalization of the
// path) and returns the response.
func (e *env) raw(t *testing.T, request string) (*http.Response, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func mustParse(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func apiclientBootstrap(project string) apiclient.BootstrapOptions {
	return apiclient.BootstrapOptions{ProjectID: project}
}
