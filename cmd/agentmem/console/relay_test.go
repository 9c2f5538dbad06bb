package console_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/cmd/agentmem/console"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
)

// TestRelayedCallsReachTheAPISignedAsTheCLISigns makes a page's calls of
// every method through the console and checks, at the API's door, that
// each arrived signed with the caller's credentials exactly as the SDK's
// signer signs it (the gateway recomputes every signature), with the
// page's concurrency and idempotency headers passed on and signed, and
// that the answers (success or the API's error envelope) come back as
// the API wrote them.
func TestRelayedCallsReachTheAPISignedAsTheCLISigns(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	c := e.browser(t)

	resp, body := e.call(t, c, "POST", "/api/agents/nori/memories",
		`{"projectId":"checkout","type":"finding","content":"Webhooks retry \"3\" times <&> é"}`,
		map[string]string{"Idempotency-Key": "key-1"})
	if resp.StatusCode != 201 {
		t.Fatalf("create: got %d %s", resp.StatusCode, body)
	}
	var m agentmem.Memory
	if err := json.Unmarshal([]byte(body), &m); err != nil || m.ID == "" || m.Content != `Webhooks retry "3" times <&> é` {
		t.Fatalf("create answer %s: %v", body, err)
	}
	if got := resp.Header.Get("Location"); got == "" {
		t.Errorf("the API's Location header was not passed on")
	}
	steps := []struct {
		method, target, body string
		header               map[string]string
		want                 int
		wantInBody           string
	}{
		{"GET", "/api/agents/nori/memories?projectId=checkout&type=finding", "", nil, 200, m.ID},
		{"GET", "/api/agents/nori/memories/" + m.ID, "", map[string]string{"If-None-Match": `"v1"`}, 200, m.ID},
		{"GET", "/api/agents/nori/memories/search?projectId=checkout&q=webhooks+retry", "", nil, 200, `"score"`},
		{"GET", "/api/agents/nori/bootstrap?projectId=checkout", "", nil, 200, "# Memory: nori / checkout"},
		{"GET", "/api/stats?limit=10", "", nil, 200, `"totals"`},
		{"PUT", "/api/projects/checkout/sessions/run-42/context/auth", `{"value":"JWT"}`, map[string]string{"If-Match": `"0"`}, 201, `"value":"JWT"`},
		{"GET", "/api/projects/checkout/sessions/run-42/context/auth", "", nil, 200, `"sessionId":"run-42"`},
		{"PUT", "/api/agents/nori/personality", `{"displayName":"Nori","version":0}`, nil, 201, `"version":1`},
		{"PUT", "/api/agents/nori/personality", `{"displayName":"Nori","version":0}`, nil, 409, `{"error":{"code":"conflict"`},
		{"GET", "/api/agents/nori/memories?projectId=bad%23id", "", nil, 400, `{"error":{"code":"invalid"`},
		{"DELETE", "/api/agents/nori/memories/" + m.ID, "", nil, 204, ""},
		{"GET", "/api/agents/nori/memories/" + m.ID, "", nil, 404, `{"error":{"code":"not_found"`},
	}
	for _, s := range steps {
		resp, body := e.call(t, c, s.method, s.target, s.body, s.header)
		if resp.StatusCode != s.want || !strings.Contains(body, s.wantInBody) {
			t.Errorf("%s %s: got %d %s, want %d with %q", s.method, s.target, resp.StatusCode, body, s.want, s.wantInBody)
		}
		if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("%s %s: Cache-Control %q, want no-store", s.method, s.target, cc)
		}
	}

	reqs := e.gw.requests()
	if len(reqs) != len(steps)+1 {
		t.Fatalf("the API received %d requests, want %d", len(reqs), len(steps)+1)
	}
	for i, r := range reqs {
		if !r.SignatureOK {
			t.Errorf("request %d %s %s: %s", i, r.Method, r.URI, r.Why)
		}
		if !strings.HasPrefix(r.URI, "/prod/api/") {
			t.Errorf("request %d reached %s, want the API's stage path", i, r.URI)
		}
		if r.Header.Get("Cookie") != "" || r.Header.Get("Origin") != "" || r.Header.Get(console.CallerHeader) != "" {
			t.Errorf("request %d carried the browser's headers to the API: %v", i, r.Header)
		}
		if ua := r.Header.Get("User-Agent"); ua != "agentmem-cli/test" {
			t.Errorf("request %d User-Agent %q, want the CLI's", i, ua)
		}
	}
	for _, want := range []struct {
		index         int
		header, value string
	}{{0, "Idempotency-Key", "key-1"}, {2, "If-None-Match", `"v1"`}, {6, "If-Match", `"0"`}} {
		r := reqs[want.index]
		if got := r.Header.Get(want.header); got != want.value {
			t.Errorf("request %d: %s %q, want %q", want.index, want.header, got, want.value)
		}
		if !strings.Contains(r.Header.Get("Authorization"), strings.ToLower(want.header)) {
			t.Errorf("request %d: %s is not signed: %s", want.index, want.header, r.Header.Get("Authorization"))
		}
	}
}

// TestRelayRefusesWhatIsNotAnAPIRoute sends the console requests that are
// not one of the API's routes with its method, written byte for byte (no
// client cleans the path): none may reach the API.
func TestRelayRefusesWhatIsNotAnAPIRoute(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	c := e.browser(t)
	cookie := c.Jar.Cookies(mustParse(t, e.url))[0]
	host := strings.TrimPrefix(e.url, "http://")
	tests := []struct {
		name, method, target string
		body                 string
		want                 int
		code                 string
	}{
		{"unknown path", "GET", "/api/nothing", "", 404, "not_found"},
		{"unknown path under an agent", "GET", "/api/agents/nori/secrets", "", 404, "not_found"},
		{"dot-dot segments", "GET", "/api/agents/nori/memories/../../../stats", "", 404, "not_found"},
		{"encoded dot-dot", "GET", "/api/agents/%2e%2e/stats?projectId=p", "", 404, "not_found"},
		{"single dot", "GET", "/api/./stats", "", 404, "not_found"},
		{"encoded slash in a parameter", "GET", "/api/agents/nori%2Fmemories/stats?projectId=p", "", 404, "not_found"},
		{"encoded slash in a memory id", "DELETE", "/api/agents/nori/memories/a%2F..%2F..%2Fstats", "", 404, "not_found"},
		{"encoded backslash", "GET", "/api/agents/nori%5C..%5Cx/stats?projectId=p", "", 404, "not_found"},
		{"doubled slash", "GET", "/api//stats", "", 404, "not_found"},
		{"trailing slash", "GET", "/api/stats/", "", 404, "not_found"},
		{"malformed escape (the HTTP server refuses it)", "GET", "/api/agents/nori%zz/stats?projectId=p", "", 400, ""},
		{"control character", "GET", "/api/agents/nori%0A/stats?projectId=p", "", 404, "not_found"},
		{"method of no route", "POST", "/api/stats", "{}", 405, "method_not_allowed"},
		{"PATCH on a read-only route", "PATCH", "/api/stats", "{}", 405, "method_not_allowed"},
		{"DELETE on personalities list", "DELETE", "/api/personalities", "", 405, "method_not_allowed"},
		{"absolute URL of another host", "GET", "http://169.254.169.254/latest/meta-data/", "", 421, ""},
		{"API path outside /api", "GET", "/prod/api/stats", "", 404, ""},
		{"dot-dot out of the pages", "GET", "/static/../api/stats", "", 404, ""},
		{"body over the cap", "POST", "/api/agents/nori/memories", `{"projectId":"p","content":"` + strings.Repeat("x", agentmem.MaxBodyBytes+2048) + `"}`, 413, "payload_too_large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(e.gw.requests())
			req := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: %s\r\nCookie: %s=%s\r\n%s: 1\r\nOrigin: %s\r\nConnection: close\r\n",
				tt.method, tt.target, host, cookie.Name, cookie.Value, console.CallerHeader, e.url)
			if tt.body != "" {
				req += fmt.Sprintf("Content-Type: application/json\r\nContent-Length: %d\r\n", len(tt.body))
			}
			resp, body := e.raw(t, req+"\r\n"+tt.body)
			if resp.StatusCode != tt.want {
				t.Errorf("got %d %s, want %d", resp.StatusCode, body, tt.want)
			}
			if tt.code != "" && !strings.Contains(body, `"code":"`+tt.code+`"`) {
				t.Errorf("body %s lacks code %q", body, tt.code)
			}
			if tt.want == 405 && resp.Header.Get("Allow") == "" {
				t.Errorf("405 without an Allow header")
			}
			if after := len(e.gw.requests()); after != before {
				t.Errorf("the API received %d requests, want none", after-before)
			}
		})
	}
}

// TestConsoleAnswersOnlyItsOwnPages checks the defences of a server that
// signs with the user's credentials: the Host (DNS rebinding), the token
// (other local users and pages), the Origin and Sec-Fetch-Site (CSRF),
// the console's header, and the headers of every answer.
func TestConsoleAnswersOnlyItsOwnPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	c := e.browser(t)
	cookie := c.Jar.Cookies(mustParse(t, e.url))[0]
	host := strings.TrimPrefix(e.url, "http://")
	_, port, _ := strings.Cut(host, ":")
	good := fmt.Sprintf("Cookie: %s=%s\r\n%s: 1\r\n", cookie.Name, cookie.Value, console.CallerHeader)
	tests := []struct {
		name, request string
		want          int
	}{
		{"a page's call", "GET /api/stats HTTP/1.1\r\nHost: " + host + "\r\n" + good + "Origin: " + e.url + "\r\nSec-Fetch-Site: same-origin\r\n", 200},
		{"localhost names the server too", "GET /api/stats HTTP/1.1\r\nHost: localhost:" + port + "\r\n" + good, 200},
		{"DNS rebinding: another host name", "GET /api/stats HTTP/1.1\r\nHost: evil.example:" + port + "\r\n" + good, 421},
		{"another port", "GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1:1\r\n" + good, 421},
		{"no Host", "GET /api/stats HTTP/1.0\r\n" + good, 421},
		{"no cookie", "GET /api/stats HTTP/1.1\r\nHost: " + host + "\r\n" + console.CallerHeader + ": 1\r\n", 401},
		{"wrong cookie", "GET /api/stats HTTP/1.1\r\nHost: " + host + "\r\nCookie: " + cookie.Name + "=guess\r\n" + console.CallerHeader + ": 1\r\n", 401},
		{"no cookie for the page either", "GET / HTTP/1.1\r\nHost: " + host + "\r\n", 401},
		{"another origin", "POST /api/agents/nori/memories HTTP/1.1\r\nHost: " + host + "\r\n" + good + "Origin: http://evil.example\r\nContent-Length: 2\r\n\r\n{}", 403},
		{"a null origin", "DELETE /api/agents/nori/memories?projectId=p HTTP/1.1\r\nHost: " + host + "\r\n" + good + "Origin: null\r\n", 403},
		{"a cross-site fetch", "GET /api/stats HTTP/1.1\r\nHost: " + host + "\r\n" + good + "Sec-Fetch-Site: cross-site\r\n", 403},
		{"without the console's header", "GET /api/stats HTTP/1.1\r\nHost: " + host + "\r\nCookie: " + cookie.Name + "=" + cookie.Value + "\r\n", 403},
		{"a wrong token in the address", "GET /?token=guess HTTP/1.1\r\nHost: " + host + "\r\n", 403},
		{"the page", "GET / HTTP/1.1\r\nHost: " + host + "\r\n" + good, 200},
		{"a script", "GET /static/js/app.js HTTP/1.1\r\nHost: " + host + "\r\n" + good, 200},
		{"no directory listing", "GET /static/js/ HTTP/1.1\r\nHost: " + host + "\r\n" + good, 404},
		{"posting to a page", "POST / HTTP/1.1\r\nHost: " + host + "\r\n" + good + "Content-Length: 0\r\n", 405},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(e.gw.requests())
			req := tt.request
			if !strings.Contains(req, "\r\n\r\n") {
				req += "Connection: close\r\n\r\n"
			}
			resp, body := e.raw(t, req)
			if resp.StatusCode != tt.want {
				t.Errorf("got %d %s, want %d", resp.StatusCode, body, tt.want)
			}
			if csp := resp.Header.Get("Content-Security-Policy"); csp != console.ContentSecurityPolicy {
				t.Errorf("Content-Security-Policy %q", csp)
			}
			if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("X-Frame-Options") != "DENY" || resp.Header.Get("Referrer-Policy") != "no-referrer" {
				t.Errorf("security headers missing: %v", resp.Header)
			}
			if tt.want != 200 && len(e.gw.requests()) != before {
				t.Errorf("a refused request reached the API")
			}
		})
	}

	// The token in the address becomes an HttpOnly, SameSite=Strict cookie
	// and leaves the address.
	resp, _ := e.raw(t, "GET /?token="+cookie.Value+" HTTP/1.1\r\nHost: "+host+"\r\nConnection: close\r\n\r\n")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Errorf("login: got %d to %q, want 303 to /", resp.StatusCode, resp.Header.Get("Location"))
	}
	set := resp.Header.Get("Set-Cookie")
	for _, want := range []string{"HttpOnly", "SameSite=Strict", "Path=/"} {
		if !strings.Contains(set, want) {
			t.Errorf("Set-Cookie %q lacks %s", set, want)
		}
	}
}

// TestNewRefusesAddressesOtherMachinesReach checks that the console never
// listens where another machine could use the user's credentials.
func TestNewRefusesAddressesOtherMachinesReach(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tests := []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1:7370", true},
		{"127.0.0.2:7370", true},
		{"[::1]:7370", true},
		{"localhost:7370", true},
		{"0.0.0.0:7370", false},
		{":7370", false},
		{"[::]:7370", false},
		{"192.168.1.10:7370", false},
		{"example.com:7370", false},
		{"127.0.0.1:0", false}, // the listener's chosen port is needed
		{"127.0.0.1", false},
	}
	for _, tt := range tests {
		_, err := console.New(console.Config{Client: e.client, Addr: tt.addr})
		if (err == nil) != tt.ok {
			t.Errorf("New(%q): got %v, want ok=%v", tt.addr, err, tt.ok)
		}
	}
}

func TestCanonicalPath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"/api/stats", "/api/stats", true},
		{"/api/agents/nori/memories", "/api/agents/nori/memories", true},
		{"/api/projects/p/sessions/run%2042/context/k%3Ax", "/api/projects/p/sessions/run%2042/context/k:x", true},
		{"/api/agents/%6Eori/stats", "/api/agents/nori/stats", true},
		{"/api/agents/nori/memories/..", "", false},
		{"/api/agents/%2E%2E/stats", "", false},
		{"/api/agents/nori%2F..%2Fstats", "", false},
		{"/api/agents/nori%5Cx", "", false},
		{"/api/agents/nori%00/stats", "", false},
		{"/api/agents/nori%7F/stats", "", false},
		{"/api/agents/nori%/stats", "", false},
		{"/api//stats", "", false},
		{"/api/stats/", "", false},
		{"/static/x", "", false},
		{"/apix/stats", "", false},
	}
	for _, tt := range tests {
		got, err := console.CanonicalPath(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("CanonicalPath(%q): got %q, %v; want %q ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

// TestRelayPassesBackOnlyTheAPIsOwnHeaders answers from an upstream that
// sets cookies and policies of its own: only the API's content, caching,
// location and idempotency headers reach the page, and the console's own
// policy stays.
func TestRelayPassesBackOnlyTheAPIsOwnHeaders(t *testing.T) {
	t.Parallel()
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("ETag", `"3"`)
		h.Set("Idempotency-Replayed", "true")
		h.Set("X-Agentmem-Request-Id", "r-1")
		h.Set("Set-Cookie", "agentmem_console=stolen; Path=/")
		h.Set("Content-Security-Policy", "default-src *")
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Server", "upstream")
		_, _ = w.Write([]byte(`{"memories":[]}`))
	}))
	defer upstream.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := console.New(console.Config{Client: apiclient.NewWithAuth(apiclient.Config{}, mustParse(t, upstream.URL), apiclient.NoAuth{}), Addr: ln.Addr().String()})
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv}
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	e := &env{console: srv, url: "http://" + ln.Addr().String()}
	resp, body := e.call(t, e.browser(t), "GET", "/api/agents/nori/memories?projectId=p", "", nil)
	if resp.StatusCode != 200 || body != `{"memories":[]}` {
		t.Fatalf("got %d %s", resp.StatusCode, body)
	}
	for name, want := range map[string]string{
		"Content-Type": "application/json", "ETag": `"3"`, "Idempotency-Replayed": "true", "X-Agentmem-Request-Id": "r-1",
		"Set-Cookie": "", "Access-Control-Allow-Origin": "", "Server": "", "Content-Security-Policy": console.ContentSecurityPolicy,
	} {
		if got := resp.Header.Get(name); got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
}
