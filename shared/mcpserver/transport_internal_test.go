package mcpserver

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// chunks is a reader that returns each chunk in one Read, then io.EOF.
type chunks struct{ parts []string }

func (c *chunks) Read(b []byte) (int, error) {
	if len(c.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(b, c.parts[0])
	c.parts[0] = c.parts[0][n:]
	if c.parts[0] == "" {
		c.parts = c.parts[1:]
	}
	return n, nil
}

func newPending() *pending { return &pending{ids: map[string]int{}, idle: closedChan()} }

func TestCountingReader(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		parts []string
		want  int // requests pending once everything is read
	}{
		{"a request", []string{`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"}, 1},
		{"a notification is no request", []string{`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"}, 0},
		{"a response of the client is no request", []string{`{"jsonrpc":"2.0","id":7,"result":{}}` + "\n"}, 0},
		{"a line split across reads", []string{`{"jsonrpc":"2.0","id":"a",`, `"method":"ping"}` + "\n" + `{"id":2,`, `"method":"x"}` + "\n"}, 2},
		{"a batch", []string{`[{"id":1,"method":"a"},{"id":2,"method":"b"},{"method":"n"}]` + "\n"}, 2},
		{"no final newline", []string{`{"id":1,"method":"a"}`}, 1},
		{"CRLF lines", []string{`{"id":1,"method":"a"}` + "\r\n" + `{"id":2,"method":"b"}` + "\r\n"}, 2},
		{"garbage", []string{"not json\n{\"id\":{},\"method\":\"a\"}\n[1,2]\n"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPending()
			r := &countingReader{r: &chunks{parts: tt.parts}, pending: p, drain: time.Millisecond}
			var err error
			for err == nil {
				_, err = r.Read(make([]byte, 7))
			}
			if err != io.EOF {
				t.Fatalf("read error %v, want io.EOF", err)
			}
			if p.n != tt.want {
				t.Errorf("pending %d, want %d", p.n, tt.want)
			}
		})
	}
}

// TestEndWaitsForAnswers: the end of the input is reported once every
// request read is answered, whatever the form of its id.
func TestEndWaitsForAnswers(t *testing.T) {
	t.Parallel()
	p := newPending()
	r := &countingReader{r: &chunks{parts: []string{`{"id":1,"method":"a"}` + "\n" + `{"id":"x","method":"b"}` + "\n" + `{"id":3,"method":"c"}` + "\n"}}, pending: p, drain: time.Hour}
	var out bytes.Buffer
	w := &answeringWriter{w: &out, pending: p}
	if _, err := r.Read(make([]byte, 512)); err != nil {
		t.Fatal(err)
	}
	if p.n != 3 {
		t.Fatalf("pending %d after reading 3 requests", p.n)
	}
	ended := make(chan error, 1)
	go func() {
		_, err := r.Read(make([]byte, 512))
		ended <- err
	}()
	for _, answer := range []string{`{"jsonrpc":"2.0","id":1,"result":{}}`, `{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`, `{"jsonrpc":"2.0","id":"x","error":{"code":-1,"message":"no"}}`} {
		if _, err := w.Write([]byte(answer + "\n")); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-ended:
			t.Fatalf("the input ended (%v) with a request unanswered", err)
		default:
		}
	}
	// 3.0 is how a client may write the id the SDK answers as 3.
	if _, err := w.Write([]byte(`{"jsonrpc":"2.0","id":3.0,"result":{}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	if err := <-ended; err != io.EOF {
		t.Errorf("end = %v, want io.EOF", err)
	}
	if got := strings.Count(out.String(), "\n"); got != 4 {
		t.Errorf("wrote %d lines, want the 4 given", got)
	}
}

// TestEndWithoutAnswer: an answer that never comes delays the end by the
// drain time only.
func TestEndWithoutAnswer(t *testing.T) {
	t.Parallel()
	p := newPending()
	r := &countingReader{r: &chunks{parts: []string{`{"id":1,"method":"a"}` + "\n"}}, pending: p, drain: 10 * time.Millisecond}
	for {
		if _, err := r.Read(make([]byte, 512)); err == io.EOF {
			break
		}
	}
	if p.n != 1 {
		t.Errorf("pending %d, want the unanswered request", p.n)
	}
}

// FuzzTransport: whatever the input, answering every request the reader
// counted, with the id as read, leaves nothing pending.
func FuzzTransport(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n",
		`[{"id":1,"method":"a"},{"id":"b","method":"b"}]` + "\n",
		`{"id":1e2,"method":"a"}` + "\r\n" + `{"id":-0,"method":"a"}`,
		`{"id":null,"method":"a"}` + "\n" + `{"id":[1],"method":"a"}`,
	} {
		f.Add([]byte(s), 5)
	}
	f.Fuzz(func(t *testing.T, data []byte, chunk int) {
		chunk = 1 + abs(chunk)%64
		var parts []string
		for s := string(data); s != ""; {
			n := min(chunk, len(s))
			parts, s = append(parts, s[:n]), s[n:]
		}
		p := newPending()
		r := &countingReader{r: &chunks{parts: parts}, pending: p, drain: time.Millisecond}
		for {
			if _, err := r.Read(make([]byte, chunk)); err != nil {
				break
			}
		}
		w := &answeringWriter{w: io.Discard, pending: p}
		for _, line := range bytes.Split(data, []byte{'\n'}) {
			for _, m := range messages(line) {
				if _, ok := idKey(m.ID); ok && m.Method != "" {
					w.Write(append(append([]byte(`{"id":`), m.ID...), "}\n"...))
				}
			}
		}
		if p.n != 0 || len(p.ids) != 0 {
			t.Fatalf("%q: %d pending (%v) after every answer", data, p.n, p.ids)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
