package mcpserver

import (
	"bytes"
	"encoding/json"
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
		{"a line split across reads", []string{`{"jsonrpc":"2.0","id":"a",`, `"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":2,`, `"method":"x"}` + "\n"}, 2},
		{"a batch", []string{`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}` + "\n" + `[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":2,"method":"b"},{"jsonrpc":"2.0","method":"n"}]` + "\n"}, 3},
		{"no final newline", []string{`{"jsonrpc":"2.0","id":1,"method":"a"}`}, 1},
		{"CRLF lines", []string{`{"jsonrpc":"2.0","id":1,"method":"a"}` + "\r\n" + `{"jsonrpc":"2.0","id":2,"method":"b"}` + "\r\n"}, 2},
		{"garbage", []string{"not json\n{\"id\":{},\"method\":\"a\"}\n[1,2]\n"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPending()
			r := &countingReader{r: &chunks{parts: tt.parts}, pending: p, drain: time.Millisecond, answer: func([]byte) {}}
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
	r := &countingReader{r: &chunks{parts: []string{`{"jsonrpc":"2.0","id":1,"method":"a"}` + "\n" + `{"jsonrpc":"2.0","id":"x","method":"b"}` + "\n" + `{"jsonrpc":"2.0","id":3,"method":"c"}` + "\n"}}, pending: p, drain: time.Hour, answer: func([]byte) {}}
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
	r := &countingReader{r: &chunks{parts: []string{`{"jsonrpc":"2.0","id":1,"method":"a"}` + "\n"}}, pending: p, drain: 10 * time.Millisecond, answer: func([]byte) {}}
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
		`[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":"b","method":"b"}]` + "\n",
		`{"jsonrpc":"2.0","id":1e2,"method":"a"}` + "\r\n" + `{"jsonrpc":"2.0","id":-0,"method":"a"}`,
		`{"jsonrpc":"2.0","id":null,"method":"a"}` + "\n" + `{"jsonrpc":"2.0","id":[1],"method":"a"}`,
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
		var answered bytes.Buffer
		r := &countingReader{r: &chunks{parts: parts}, pending: p, drain: time.Millisecond, answer: func(b []byte) { answered.Write(b) }}
		var passed bytes.Buffer
		for {
			b := make([]byte, chunk)
			n, err := r.Read(b)
			passed.Write(b[:n])
			if err != nil {
				break
			}
		}
		// Every line passed on is a message; every line refused was
		// answered with one JSON-RPC error.
		for _, line := range bytes.Split(bytes.TrimSuffix(passed.Bytes(), []byte{'\n'}), []byte{'\n'}) {
			if len(line) == 0 {
				continue
			}
			if _, rej := messages(line); rej != nil {
				t.Fatalf("%q was passed on, but is no message (%s)", line, rej.msg)
			}
		}
		for _, line := range bytes.Split(bytes.TrimSuffix(answered.Bytes(), []byte{'\n'}), []byte{'\n'}) {
			if len(line) == 0 {
				continue
			}
			var resp struct {
				JSONRPC string             `json:"jsonrpc"`
				Error   struct{ Code int } `json:"error"`
			}
			if json.Unmarshal(line, &resp) != nil || resp.JSONRPC != "2.0" || (resp.Error.Code != codeParseError && resp.Error.Code != codeInvalidRequest) {
				t.Fatalf("answer %q is not a JSON-RPC error", line)
			}
		}
		w := &answeringWriter{w: io.Discard, pending: p}
		for _, line := range bytes.Split(passed.Bytes(), []byte{'\n'}) {
			msgs, _ := messages(bytes.TrimSpace(line))
			for _, m := range msgs {
				if _, ok := idKey(m.ID); ok && m.Method != nil {
					w.Write(append(append([]byte(`{"jsonrpc":"2.0","id":`), m.ID...), `,"result":{}}`+"\n"...))
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

// TestRefusedLines: a line that is not a JSON-RPC message gets the error
// JSON-RPC prescribes, and the lines after it are served.
func TestRefusedLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		code int
		id   string
	}{
		{"not json", codeParseError, "null"},
		{`{"jsonrpc":"2.0","id":2,"method":"ping"`, codeParseError, "null"},
		{"42", codeInvalidRequest, "null"},
		{`"text"`, codeInvalidRequest, "null"},
		{"null", codeInvalidRequest, "null"},
		{"[]", codeInvalidRequest, "null"},
		{"[1,2]", codeInvalidRequest, "null"},
		{`{"foo":1}`, codeInvalidRequest, "null"},
		{`{"jsonrpc":"1.0","id":7,"method":"ping"}`, codeInvalidRequest, "7"},
		{`{"jsonrpc":"2.0","id":{},"method":"ping"}`, codeInvalidRequest, "null"},
		{`{"jsonrpc":"2.0","id":"a","method":""}`, codeInvalidRequest, `"a"`},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"},3]`, codeInvalidRequest, "null"},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, codeInvalidRequest, "null"}, // no session with batches initialized
		{`{"jsonrpc":"2.0","id":0.5,"method":"ping"}`, codeInvalidRequest, "null"},
		{`{"jsonrpc":"2.0","id":1e20,"method":"ping"}`, codeInvalidRequest, "null"},
		{`{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}}`, codeInvalidRequest, "7"},
		{strings.Repeat("[", 20000) + strings.Repeat("]", 20000), codeParseError, "null"},
	}
	for _, tt := range tests {
		t.Run(tt.line[:min(len(tt.line), 60)], func(t *testing.T) {
			var answered bytes.Buffer
			p := newPending()
			next := `{"jsonrpc":"2.0","id":9,"method":"ping"}`
			r := &countingReader{r: strings.NewReader(tt.line + "\n" + next + "\n"), pending: p, drain: time.Millisecond, answer: func(b []byte) { answered.Write(b) }}
			passed, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if string(passed) != next+"\n" {
				t.Errorf("passed on %q, want only the next message", passed)
			}
			var resp struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(answered.Bytes(), &resp); err != nil || strings.Count(answered.String(), "\n") != 1 {
				t.Fatalf("answer %q: want one JSON-RPC response line (%v)", answered.String(), err)
			}
			if resp.JSONRPC != "2.0" || resp.Error.Code != tt.code || string(resp.ID) != tt.id || resp.Error.Message == "" {
				t.Errorf("answer %s, want code %d and id %s", answered.String(), tt.code, tt.id)
			}
		})
	}
}
