package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Transport returns a transport over r and w (the process's standard input
// and output) that answers every request read from r before it reports the
// end of r. The SDK ends the session as soon as its input ends, dropping
// the answers still being computed; with Transport a client may write its
// requests and close its end at once (printf ... | agentmem mcp) and still
// get every answer. It waits at most drain for them. r and w are never
// closed.
//
// Requests are counted as they are read (JSON objects, or batches of them,
// with a method and an id, one a line) and answered as responses with
// their id are written.
func Transport(r io.Reader, w io.Writer, drain time.Duration) mcp.Transport {
	p := &pending{ids: map[string]int{}, idle: closedChan()}
	return &mcp.IOTransport{
		Reader: &countingReader{r: r, pending: p, drain: drain},
		Writer: &answeringWriter{w: w, pending: p},
	}
}

func closedChan() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

// pending counts the requests read and not yet answered, by id.
type pending struct {
	mu   sync.Mutex
	ids  map[string]int
	n    int
	idle chan struct{} // closed while n == 0
}

func (p *pending) add(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n == 0 {
		p.idle = make(chan struct{})
	}
	p.ids[id]++
	p.n++
}

func (p *pending) done(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ids[id] == 0 {
		return
	}
	p.ids[id]--
	if p.ids[id] == 0 {
		delete(p.ids, id)
	}
	p.n--
	if p.n == 0 {
		close(p.idle)
	}
}

// wait returns when every request is answered or after d.
func (p *pending) wait(d time.Duration) {
	p.mu.Lock()
	idle := p.idle
	p.mu.Unlock()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-idle:
	case <-t.C:
	}
}

// message is what Transport reads of a JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// messages decodes one line: a message or a batch of them. Anything else
// yields nothing (the SDK answers it with an error of its own).
func messages(line []byte) []message {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil
	}
	if line[0] == '[' {
		var batch []message
		if json.Unmarshal(line, &batch) != nil {
			return nil
		}
		return batch
	}
	var m message
	if json.Unmarshal(line, &m) != nil {
		return nil
	}
	return []message{m}
}

// idKey normalizes a request id: the SDK answers 1.0 as 1.
func idKey(raw json.RawMessage) (string, bool) {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	switch v := v.(type) {
	case string:
		return "s" + v, true
	case float64:
		return "n" + strconv.FormatFloat(v, 'g', -1, 64), true
	}
	return "", false
}

// countingReader counts the requests it passes on; at the end of its
// input it waits for their answers before it reports it.
type countingReader struct {
	r       io.Reader
	pending *pending
	drain   time.Duration
	partial []byte // the start of a line not yet complete
}

// Read implements io.Reader.
func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.partial = append(c.partial, b[:n]...)
	if i := bytes.LastIndexByte(c.partial, '\n'); i >= 0 {
		c.count(c.partial[:i])
		c.partial = append(c.partial[:0], c.partial[i+1:]...)
	}
	if err != nil {
		c.count(c.partial)
		c.partial = nil
		c.pending.wait(c.drain)
	}
	return n, err
}

func (c *countingReader) count(lines []byte) {
	for _, line := range bytes.Split(lines, []byte{'\n'}) {
		for _, m := range messages(line) {
			if id, ok := idKey(m.ID); ok && m.Method != "" {
				c.pending.add(id)
			}
		}
	}
}

// Close implements io.Closer; the input stays open.
func (c *countingReader) Close() error { return nil }

// answeringWriter marks requests answered once their responses are
// written.
type answeringWriter struct {
	w       io.Writer
	pending *pending
}

// Write implements io.Writer. The SDK writes whole messages, one a line.
func (a *answeringWriter) Write(b []byte) (int, error) {
	n, err := a.w.Write(b)
	for _, line := range bytes.Split(b[:n], []byte{'\n'}) {
		for _, m := range messages(line) {
			if id, ok := idKey(m.ID); ok && m.Method == "" {
				a.pending.done(id)
			}
		}
	}
	return n, err
}

// Close implements io.Closer; the output stays open.
func (a *answeringWriter) Close() error { return nil }
