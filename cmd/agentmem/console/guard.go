package console

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
)

const (
	// tokenParam carries the run's token in the URL the command opens.
	tokenParam = "token"
	// cookiePrefix names the cookie that holds the token in the browser
	// afterwards, followed by the server's port: cookies do not tell ports
	// apart, and two consoles may run at once.
	cookiePrefix = "agentmem_console_"
	// CallerHeader must be on every relayed call: a page of another
	// origin cannot add it without a CORS preflight, which the server
	// never grants.
	CallerHeader = "X-Agentmem-Console"
)

// ContentSecurityPolicy is the policy of every answer: the server's own
// scripts, styles, images and calls only; no inline script or style
// sheet, no plugin, no frame, no form posting elsewhere; and Trusted
// Types required, so that no string can reach an HTML sink (innerHTML,
// outerHTML, insertAdjacentHTML, document.write): stored text is written
// with textContent only.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; " +
	"require-trusted-types-for 'script'; trusted-types 'none'"

func setSecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()")
}

// checkHost refuses a request whose Host is not this server's (a DNS
// rebinding page: evil.example resolved to 127.0.0.1 sends Host
// evil.example).
func (s *Server) checkHost(w http.ResponseWriter, r *http.Request) bool {
	if s.hosts[strings.ToLower(r.Host)] {
		return true
	}
	s.log.Warn("console: refused a request for another host", "host", r.Host, "method", r.Method, "path", r.URL.Path)
	s.refuse(w, r, http.StatusMisdirectedRequest, "misdirected", "this is the agentmem console of "+s.base+"; it answers only requests addressed to it")
	return false
}

// login exchanges the token in the URL for the cookie and sends the
// browser to the same address without it (so that it stays out of the
// history and of what a person copies).
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || !s.tokenEqual(r.URL.Query().Get(tokenParam)) {
		s.log.Warn("console: refused a wrong token", "method", r.Method, "path", r.URL.Path)
		s.refuse(w, r, http.StatusForbidden, "forbidden", "this link's token is not the one of the running console: open the address agentmem console printed")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: s.cookie, Value: s.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	q := r.URL.Query()
	q.Del(tokenParam)
	to := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, to.String(), http.StatusSeeOther)
}

// checkToken refuses a request without the run's cookie.
func (s *Server) checkToken(w http.ResponseWriter, r *http.Request) bool {
	if c, err := r.Cookie(s.cookie); err == nil && s.tokenEqual(c.Value) {
		return true
	}
	s.refuse(w, r, http.StatusUnauthorized, "unauthorized", "open the address agentmem console printed (it carries this run's token); a console started again has a new one")
	return false
}

// checkCaller refuses a call that does not come from the console's own
// pages: another origin (Origin, Sec-Fetch-Site) or without the console's
// request header.
func (s *Server) checkCaller(w http.ResponseWriter, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	site := r.Header.Get("Sec-Fetch-Site")
	switch {
	case origin != "" && !s.origins[origin]:
		s.log.Warn("console: refused a call from another origin", "origin", origin, "method", r.Method, "path", r.URL.Path)
		s.refuse(w, r, http.StatusForbidden, "forbidden", "calls from another origin are refused")
	case site != "" && site != "same-origin":
		s.log.Warn("console: refused a cross-site call", "site", site, "method", r.Method, "path", r.URL.Path)
		s.refuse(w, r, http.StatusForbidden, "forbidden", "calls from another site are refused")
	case r.Header.Get(CallerHeader) != "1":
		s.refuse(w, r, http.StatusForbidden, "forbidden", "calls must come from the console's pages (header "+CallerHeader+")")
	default:
		return true
	}
	return false
}

// refuse answers an error of the console itself: the API's error
// envelope for calls, a line of text for pages.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status int, code, message string) {
	if strings.HasPrefix(r.URL.Path, "/api/") || strings.HasPrefix(r.URL.Path, "/console/") {
		writeError(w, status, code, message)
		return
	}
	writePlain(w, status, message)
}

func writeError(w http.ResponseWriter, status int, code, message string) {
	writeJSON(w, status, agentmem.ErrorEnvelope{Error: &agentmem.Error{Code: code, Message: message}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writePlain(w http.ResponseWriter, status int, message string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte("agentmem console: " + message + "\n"))
}
