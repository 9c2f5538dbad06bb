package apiclient

import (
	"context"
	"net/http"
)

// ForwardRequest is a request relayed to the API as a caller made it
// (agentmem console relays its pages' calls).
type ForwardRequest struct {
	Method string
	// Path is the escaped path of one of the API's routes, e.g.
	// /api/agents/nori/memories/01J...; the relay checks it against the
	// route table before forwarding.
	Path string
	// RawQuery is the encoded query, without '?'.
	RawQuery string
	// Header holds the request headers to pass on (Content-Type, Accept,
	// If-Match, Idempotency-Key, ...); the client sets User-Agent and the
	// authorization itself.
	Header http.Header
	// Body is the exact payload (nil for none).
	Body []byte
}

// Forward sends r to the API once, authorized as every call of the client
// is (SigV4 with the caller's credentials, or none for a local dev
// server), and returns the answer whatever its status: a relay passes the
// API's errors on as the API wrote them. The error is only for requests
// that got no answer (*TransportError) or could not be signed.
func (c *Client) Forward(ctx context.Context, r ForwardRequest) (*Response, error) {
	req, err := c.newRequest(ctx, r.Method, r.Path, r.RawQuery, r.Body)
	if err != nil {
		return nil, err
	}
	for name, values := range r.Header {
		req.Header[http.CanonicalHeaderKey(name)] = append([]string(nil), values...)
	}
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "application/json")
	}
	return c.authorizeAndSend(ctx, req, r.Method, r.Path, r.Body)
}
