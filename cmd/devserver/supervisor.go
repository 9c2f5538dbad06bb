package main

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamolocal"
	"github.com/agentmem/agentmem/shared/httpapi"
)

// supervisor keeps DynamoDB Local running for the dev server: when it
// exits, it starts it again on the same port with the same data, and
// meanwhile guard answers 503.
type supervisor struct {
	endpoint string
	opts     dynamolocal.Options
	log      *slog.Logger
	up       atomic.Bool

	// afterStart prepares a restarted DynamoDB Local (the tables, which
	// one running in memory has lost) before requests reach it.
	afterStart func(context.Context) error

	mu      sync.Mutex
	srv     *dynamolocal.Server
	stopped bool
}

// restartWait bounds the wait between two failed starts.
const restartWait = 5 * time.Second

// supervise starts DynamoDB Local and watches it until ctx ends.
func supervise(ctx context.Context, opts dynamolocal.Options, log *slog.Logger) (*supervisor, error) {
	srv, err := dynamolocal.Start(ctx, opts)
	if err != nil {
		return nil, err
	}
	opts.Port = srv.Port // restarts keep the endpoint the store knows
	s := &supervisor{endpoint: srv.Endpoint, opts: opts, log: log, srv: srv}
	s.up.Store(true)
	go s.watch(ctx)
	return s, nil
}

// watch restarts DynamoDB Local each time it exits, until ctx ends or stop
// is called.
func (s *supervisor) watch(ctx context.Context) {
	for {
		s.mu.Lock()
		srv := s.srv
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-srv.Done():
		}
		s.mu.Lock()
		stopped := s.stopped
		s.mu.Unlock()
		if stopped {
			return
		}
		s.up.Store(false)
		s.log.Error("DynamoDB Local exited; answering 503 while it starts again", "endpoint", s.endpoint)
		wait := 200 * time.Millisecond
		for {
			next, err := dynamolocal.Start(ctx, s.opts)
			s.mu.Lock()
			prepare := s.afterStart
			s.mu.Unlock()
			if err == nil && prepare != nil {
				if err = prepare(ctx); err != nil {
					_ = next.Stop()
				}
			}
			if err == nil {
				s.mu.Lock()
				s.srv = next
				s.mu.Unlock()
				s.up.Store(true)
				s.log.Info("DynamoDB Local is back", "endpoint", s.endpoint)
				break
			}
			if ctx.Err() != nil {
				return
			}
			s.log.Error("DynamoDB Local did not start; trying again", "err", err, "in", wait)
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			wait = min(2*wait, restartWait)
		}
	}
}

// prepareWith has f run on every DynamoDB Local started again, before
// requests reach it (the tables).
func (s *supervisor) prepareWith(f func(context.Context) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.afterStart = f
}

// stop ends DynamoDB Local for good.
func (s *supervisor) stop() {
	s.mu.Lock()
	s.stopped = true
	srv := s.srv
	s.mu.Unlock()
	_ = srv.Stop()
}

// guard answers 503 with the API's JSON error envelope while DynamoDB
// Local is down, and passes requests to next otherwise.
func (s *supervisor) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.up.Load() {
			next.ServeHTTP(w, r)
			return
		}
		resp := httpapi.ErrorResponse(&agentmem.Error{Code: agentmem.EUnavailable,
			Message: "DynamoDB Local stopped and is starting again; retry in a moment", RetryAfter: time.Second})
		for k, v := range resp.Headers {
			w.Header().Set(k, v)
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write([]byte(resp.Body))
	})
}
