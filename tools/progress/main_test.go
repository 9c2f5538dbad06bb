package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the command's and the ticker's
// writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestProgress(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		script string
		code   int
		notice bool
	}{
		// Quiet for 400 ms, eight times the period: at least one notice.
		{"a quiet command", "echo start; sleep 0.4; echo end; exit 3", 3, true},
		// Quick: done before the first period passes.
		{"a quick command", "echo done", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr syncBuffer
			every := 50 * time.Millisecond
			if !tt.notice {
				every = time.Minute
			}
			code := run([]string{"sh", "-c", tt.script}, every, "waiting", "a hint", &stdout, &stderr)
			got := strings.Contains(stderr.String(), "... still waiting (")
			if code != tt.code || got != tt.notice || !strings.Contains(stdout.String(), "done") && !strings.Contains(stdout.String(), "end") {
				t.Errorf("code %d, stdout %q, stderr %q; want code %d, a notice %v", code, stdout.String(), stderr.String(), tt.code, tt.notice)
			}
			if tt.notice && !strings.Contains(stderr.String(), "so far; a hint)") {
				t.Errorf("the notice lacks the hint: %q", stderr.String())
			}
		})
	}
}
