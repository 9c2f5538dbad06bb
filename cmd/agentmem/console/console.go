// Package console is the local web application of `agentmem console`: a
// server on a loopback address that serves the embedded pages (web/, no
// CDN, no network) and relays their calls to the agentmem API through
// package apiclient, signed exactly as the CLI signs (SigV4 with the
// caller's credentials), so that no credential ever reaches the browser
// and IAM stays the only door to the API.
//
// Because it signs with the user's credentials, the server trusts nothing
// it did not hand out itself:
//   - only the API's own routes (shared/routes), with their method, are
//     relayed: any other path answers 404, a known path with another
//     method 405, and paths with empty, dot or encoded-slash segments are
//     refused before matching (relay.go);
//   - every request must name the server's own host (DNS rebinding) and
//     carry the run's token, handed to the browser once through the URL
//     the command opens and kept in an HttpOnly, SameSite=Strict cookie;
//     relayed calls must also come from the server's own origin and carry
//     the console's request header (CSRF) (guard.go);
//   - pages are served with a strict Content-Security-Policy that allows
//     only the server's own scripts and styles and requires Trusted Types,
//     so stored memory text (possibly poisoned) can never become markup or
//     code: the pages write it with textContent only.
package console

import (
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/apiclient"
)

//go:embed web
var webFiles embed.FS

// assets are the pages' files, served under /static/.
var assets = func() fs.FS {
	sub, err := fs.Sub(webFiles, "web")
	if err != nil {
		panic(err)
	}
	return sub
}()

// Config is what a console server needs.
type Config struct {
	// Client relays the pages' calls to the API (apiclient.Forward).
	Client *apiclient.Client
	// Addr is the address the server listens on, host:port with a
	// loopback host (the listener's actual address, port chosen): the
	// Host and Origin of every request must name it.
	Addr string
	// Token is the run's secret; empty means a fresh random one.
	Token string
	// Info is shown by the pages (the API's URL, the signing mode, the
	// CLI's version).
	Info Info
	// Log records refused requests and relay failures; nil discards.
	Log *slog.Logger
	// RelayTimeout bounds one relayed call (a dream takes up to API
	// Gateway's 30 s); 0 means DefaultRelayTimeout.
	RelayTimeout time.Duration
}

// Info is what GET /console/info tells the pages.
type Info struct {
	APIURL  string `json:"apiUrl"`
	Auth    string `json:"auth"`
	Version string `json:"version"`
}

// DefaultRelayTimeout bounds a relayed call.
const DefaultRelayTimeout = 60 * time.Second

// Server is the console's HTTP handler.
type Server struct {
	client  *apiclient.Client
	token   string
	cookie  string          // the name of the token's cookie
	hosts   map[string]bool // the Host values that name this server
	origins map[string]bool // the Origin values of its pages
	base    string          // the URL of the server, http://host:port
	info    Info
	log     *slog.Logger
	timeout time.Duration
	files   http.Handler
}

var _ http.Handler = (*Server)(nil)

// New returns the server for cfg. It refuses an address that is not a
// loopback one: the console signs with the user's credentials, so it
// must not be reachable from another machine.
func New(cfg Config) (*Server, error) {
	if cfg.Client == nil {
		return nil, errors.New("console: no API client")
	}
	host, port, err := net.SplitHostPort(cfg.Addr)
	if err != nil || port == "" || port == "0" {
		return nil, fmt.Errorf("console: address %q is not host:port with a chosen port", cfg.Addr)
	}
	if err := CheckLoopback(host); err != nil {
		return nil, err
	}
	token := cfg.Token
	if token == "" {
		b := make([]byte, 32)
		if _, err := rand.Read(b); err != nil {
			return nil, fmt.Errorf("console: make the run's token: %w", err)
		}
		token = base64.RawURLEncoding.EncodeToString(b)
	}
	s := &Server{
		client: cfg.Client, token: token, cookie: cookiePrefix + port, info: cfg.Info, log: cfg.Log, timeout: cfg.RelayTimeout,
		hosts: map[string]bool{}, origins: map[string]bool{},
		files: http.StripPrefix("/static/", http.FileServerFS(assets)),
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.timeout <= 0 {
		s.timeout = DefaultRelayTimeout
	}
	names := []string{host}
	if host != "localhost" {
		names = append(names, "localhost")
	}
	for _, h := range names {
		hp := net.JoinHostPort(h, port)
		s.hosts[hp] = true
		s.origins["http://"+hp] = true
	}
	s.base = "http://" + net.JoinHostPort(host, port)
	return s, nil
}

// CheckLoopback returns an error unless host (a name or an IP, without a
// port) is a loopback address: 127.0.0.0/8, ::1 or localhost.
func CheckLoopback(host string) error {
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("console: %q is not a loopback address; the console signs requests with your AWS credentials, so it only listens on 127.0.0.1, ::1 or localhost", host)
}

// URL is the address to open: the server's URL with the run's token,
// which the server exchanges for a cookie and removes from the address.
func (s *Server) URL() string {
	return s.base + "/?" + url.Values{tokenParam: {s.token}}.Encode()
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	setSecurityHeaders(w.Header())
	if !s.checkHost(w, r) {
		return
	}
	if r.URL.Query().Has(tokenParam) {
		s.login(w, r)
		return
	}
	if !s.checkToken(w, r) {
		return
	}
	path := r.URL.Path
	switch {
	case strings.HasPrefix(path, "/api/"):
		if s.checkCaller(w, r) {
			s.relay(w, r)
		}
	case path == "/console/info" && r.Method == http.MethodGet:
		if s.checkCaller(w, r) {
			writeJSON(w, http.StatusOK, s.info)
		}
	case r.Method != http.MethodGet && r.Method != http.MethodHead:
		w.Header().Set("Allow", "GET, HEAD")
		writePlain(w, http.StatusMethodNotAllowed, "method not allowed")
	case path == "/" || path == "/index.html":
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFileFS(w, r, assets, "index.html")
	case strings.HasPrefix(path, "/static/") && !strings.HasSuffix(path, "/"):
		w.Header().Set("Cache-Control", "no-cache")
		s.files.ServeHTTP(w, r)
	default:
		writePlain(w, http.StatusNotFound, "not found: the console's pages are at / (their addresses are after #)")
	}
}

// tokenEqual compares a presented token with the run's in constant time.
func (s *Server) tokenEqual(got string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) == 1
}
