package cli

import (
	"net/http"
	"sync"
	"time"
)

// slowAfter is how long a request waits for its answer before the
// command says it is still waiting (Env.SlowAfter, when positive,
// replaces it).
const slowAfter = 3 * time.Second

// slowNotice is a transport that calls note (once per command) when a
// request has waited slowAfter for its answer's headers, so that a person
// facing a slow or hung server knows the command is not stuck on its own.
type slowNotice struct {
	next  http.RoundTripper
	after time.Duration
	note  func(*http.Request)
	once  sync.Once
}

// RoundTrip implements http.RoundTripper. The note is written before
// RoundTrip returns or not at all, never while the command goes on.
func (s *slowNotice) RoundTrip(r *http.Request) (*http.Response, error) {
	done := make(chan struct{})
	t := time.AfterFunc(s.after, func() {
		defer close(done)
		s.once.Do(func() { s.note(r) })
	})
	resp, err := s.next.RoundTrip(r)
	if !t.Stop() {
		<-done
	}
	return resp, err
}
