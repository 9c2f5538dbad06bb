package console

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/routes"
)

// RequestHeaders are the request headers relayed to the API (and so
// signed): the body's type, what the page accepts, and the API's
// concurrency and idempotency headers. Nothing else of the browser's
// (cookies above all) leaves the machine.
var RequestHeaders = []string{"Content-Type", "Accept", "If-Match", "If-None-Match", "If-Unmodified-Since", "Idempotency-Key"}

// ResponseHeaders are the API's answer headers passed back to the page,
// with those named by ResponseHeaderPrefixes (the API's idempotency and
// own headers). Nothing else passes: no cookie, no policy header of the
// API's can change what the console's origin allows.
var ResponseHeaders = []string{"Content-Type", "ETag", "Last-Modified", "Location", "Retry-After", "Allow"}

// ResponseHeaderPrefixes name the families of answer headers passed back.
var ResponseHeaderPrefixes = []string{"Idempotency-", "Idempotent-", "X-Agentmem-"}

// maxRelayBody bounds a relayed body: the API refuses more than
// agentmem.MaxBodyBytes anyway; a little over lets it say so itself.
const maxRelayBody = agentmem.MaxBodyBytes + 1<<10

// relay forwards a page's call to the API when it is one of the API's
// routes with its method, signed by the client; the answer, error or not,
// goes back as the API wrote it.
func (s *Server) relay(w http.ResponseWriter, r *http.Request) {
	path, err := CanonicalPath(r.URL.EscapedPath())
	if err != nil {
		s.log.Warn("console: refused a path", "path", r.URL.EscapedPath(), "err", err)
		writeError(w, http.StatusNotFound, agentmem.ENotFound, err.Error())
		return
	}
	route, _, known := routes.Match(r.Method, path)
	switch {
	case route.Name == "" && known:
		w.Header().Set("Allow", strings.Join(routes.Allowed(path), ", "))
		writeError(w, http.StatusMethodNotAllowed, agentmem.EMethodNotAllowed, fmt.Sprintf("%s is not allowed on %s", r.Method, path))
		return
	case route.Name == "":
		writeError(w, http.StatusNotFound, agentmem.ENotFound, fmt.Sprintf("no API route %s %s: the console relays only the API's routes", r.Method, path))
		return
	}
	query, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		writeError(w, http.StatusBadRequest, agentmem.EInvalid, "the query string is malformed: "+err.Error())
		return
	}
	var body []byte
	if r.Body != nil && r.Method != http.MethodGet && r.Method != http.MethodHead {
		body, err = io.ReadAll(io.LimitReader(r.Body, maxRelayBody+1))
		if err != nil {
			writeError(w, http.StatusBadRequest, agentmem.EInvalid, "read the request body: "+err.Error())
			return
		}
		if len(body) > maxRelayBody {
			writeError(w, http.StatusRequestEntityTooLarge, agentmem.ETooLarge, fmt.Sprintf("request body over %d bytes", agentmem.MaxBodyBytes))
			return
		}
		if len(body) == 0 {
			body = nil
		}
	}
	header := http.Header{}
	for _, h := range RequestHeaders {
		if v := r.Header.Values(h); len(v) > 0 {
			header[http.CanonicalHeaderKey(h)] = v
		}
	}
	if body == nil {
		header.Del("Content-Type")
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.timeout)
	defer cancel()
	resp, err := s.client.Forward(ctx, apiclient.ForwardRequest{
		Method: route.Method, Path: path, RawQuery: query.Encode(), Header: header, Body: body,
	})
	if err != nil {
		s.relayFailed(w, r, route, err)
		return
	}
	for name, v := range resp.Header {
		if passesBack(name) {
			w.Header()[name] = v
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(resp.Status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(resp.Body)
	}
}

// relayFailed answers a call that got no answer from the API.
func (s *Server) relayFailed(w http.ResponseWriter, r *http.Request, route routes.Route, err error) {
	s.log.Warn("console: relay failed", "route", route.Name, "err", err)
	var transport *apiclient.TransportError
	switch {
	case errors.Is(err, context.Canceled) && r.Context().Err() != nil:
		return // the page went away
	case errors.As(err, &transport):
		writeError(w, http.StatusBadGateway, apiclient.CodeUnavailable, err.Error())
	default:
		// Signing failed: no credentials, no region.
		writeError(w, http.StatusBadGateway, apiclient.CodeUnauthorized, "the console could not sign the call: "+err.Error())
	}
}

// CanonicalPath returns the escaped path the console relays for the path
// a page asked for: every segment decoded once and escaped again. It
// refuses what could reach another path than the one matched: empty
// segments (a trailing or doubled slash), "." and "..", segments that
// decode to a slash or backslash, control characters, malformed escapes,
// and paths outside /api/.
func CanonicalPath(escaped string) (string, error) {
	if !strings.HasPrefix(escaped, "/api/") {
		return "", fmt.Errorf("no API route at %q: the console relays only the API's routes", escaped)
	}
	segs := strings.Split(escaped[1:], "/")
	out := make([]string, len(segs))
	for i, seg := range segs {
		dec, err := url.PathUnescape(seg)
		switch {
		case err != nil:
			return "", fmt.Errorf("path segment %q is not validly escaped", seg)
		case dec == "" || dec == "." || dec == "..":
			return "", fmt.Errorf("path %q has an empty or dot segment", escaped)
		case strings.ContainsAny(dec, "/\\"):
			return "", fmt.Errorf("path segment %q holds a slash", seg)
		case strings.ContainsFunc(dec, func(r rune) bool { return r < 0x20 || r == 0x7f }):
			return "", fmt.Errorf("path segment %q holds a control character", seg)
		}
		out[i] = url.PathEscape(dec)
	}
	return "/" + strings.Join(out, "/"), nil
}

// passesBack reports whether the answer header name (canonical) goes back
// to the page.
func passesBack(name string) bool {
	for _, h := range ResponseHeaders {
		if name == http.CanonicalHeaderKey(h) {
			return true
		}
	}
	for _, p := range ResponseHeaderPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
