package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
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
//
// The SDK ends the session at the first line that is not a JSON-RPC
// message, leaving the client without an answer. Transport answers such a
// line itself, as JSON-RPC says (id null unless the line has a usable
// one): -32700 "Parse error" for a line that is not JSON (a line longer
// than mcp.DefaultMaxLineLength included), -32600 "Invalid Request" for
// JSON that is not a JSON-RPC 2.0 message or batch, and passes the SDK the
// lines that are.
//
// It also refuses, with -32600, what the SDK cannot answer and would end
// the session for or answer under another id: a batch when the client did
// not initialize the session with a protocol version that has batches
// (2024-11-05, 2025-03-26; they were removed in 2025-06-18), a batch with
// two requests of one id, a message nesting deeper than the SDK decodes
// (1000 levels), and an id that is a number but no integer of at
// most 2^53 in magnitude (the SDK keeps ids as int64: 1.5 would be
// answered as 1, 2^63 as -2^63).
func Transport(r io.Reader, w io.Writer, drain time.Duration) mcp.Transport {
	p := &pending{ids: map[string]int{}, idle: closedChan()}
	aw := &answeringWriter{w: w, pending: p}
	return &mcp.IOTransport{
		Reader:        &countingReader{r: r, pending: p, drain: drain, answer: aw.writeLine},
		Writer:        aw,
		MaxLineLength: -1, // countingReader bounds the lines
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

// has reports whether a request of that id is pending.
func (p *pending) has(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ids[id] > 0
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
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// valid reports whether m is a JSON-RPC 2.0 request, notification or
// response with an id of a valid type.
func (m message) valid() bool {
	if m.JSONRPC == nil || *m.JSONRPC != "2.0" {
		return false
	}
	if len(m.ID) > 0 && !bytes.Equal(m.ID, []byte("null")) {
		if _, ok := idKey(m.ID); !ok {
			return false
		}
	}
	return (m.Method != nil && *m.Method != "") || (m.Method == nil && (m.Result != nil || m.Error != nil))
}

// JSON-RPC error codes of the lines Transport answers itself.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// rejection is Transport's answer to a line that is not a message.
type rejection struct {
	code int
	msg  string
	id   json.RawMessage // null unless the line had a usable id
}

// response renders the rejection as a JSON-RPC error response line.
func (r *rejection) response() []byte {
	id := r.id
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	name := "Invalid Request"
	if r.code == codeParseError {
		name = "Parse error"
	}
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": r.code, "message": name + ": " + r.msg},
	})
	return append(b, '\n')
}

// messages decodes one line (trimmed, not empty): a message or a batch of
// them. A line that is not one is refused.
func messages(line []byte) ([]message, *rejection) {
	if !json.Valid(line) {
		var v any
		err := json.Unmarshal(line, &v)
		return nil, &rejection{code: codeParseError, msg: fmt.Sprintf("the line is not JSON (%v); send one JSON-RPC message a line", err)}
	}
	if d := depth(line); d > maxDepth {
		r := &rejection{code: codeInvalidRequest, msg: fmt.Sprintf("the message nests %d levels deep; at most %d are read", d, maxDepth)}
		var m message
		if json.Unmarshal(line, &m) == nil {
			if _, ok := idKey(m.ID); ok {
				r.id = m.ID
			}
		}
		return nil, r
	}
	if line[0] == '[' {
		var raws []json.RawMessage
		if json.Unmarshal(line, &raws) != nil || len(raws) == 0 {
			return nil, &rejection{code: codeInvalidRequest, msg: "a batch must be a non-empty array of JSON-RPC messages"}
		}
		batch := make([]message, 0, len(raws))
		for _, raw := range raws {
			var m message
			if json.Unmarshal(raw, &m) != nil || !m.valid() {
				return nil, &rejection{code: codeInvalidRequest, msg: "every message of a batch must be a JSON-RPC 2.0 object"}
			}
			batch = append(batch, m)
		}
		return batch, nil
	}
	var m message
	if json.Unmarshal(line, &m) != nil || !m.valid() {
		r := &rejection{code: codeInvalidRequest, msg: `not a JSON-RPC 2.0 message: want an object with "jsonrpc":"2.0", a "method" (and an "id" that is a string or a number for a request), or a "result" or "error"`}
		if _, ok := idKey(m.ID); ok {
			r.id = m.ID
		}
		return nil, r
	}
	return []message{m}, nil
}

// maxNumericID bounds a numeric request id: 2^53, the largest magnitude
// up to which every integer survives the SDK's float64-then-int64 reading.
const maxNumericID = 1 << 53

// maxDepth is the deepest nesting of objects and arrays the SDK decodes
// (its internal/json); it ends the session at a deeper message.
const maxDepth = 1000

// depth returns how deeply the JSON text data nests objects and arrays.
func depth(data []byte) int {
	d, deepest := 0, 0
	inString, escaped := false, false
	for _, b := range data {
		switch {
		case escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case b == '"':
			inString = !inString
		case inString:
		case b == '{' || b == '[':
			d++
			deepest = max(deepest, d)
		case b == '}' || b == ']':
			d--
		}
	}
	return deepest
}

// idKey normalizes a request id: the SDK answers 1.0 as 1. A number that
// is not an integer of at most maxNumericID in magnitude is no usable id:
// the SDK would answer it under another one.
func idKey(raw json.RawMessage) (string, bool) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if len(raw) == 0 || d.Decode(&v) != nil {
		return "", false
	}
	switch v := v.(type) {
	case string:
		return "s" + v, true
	case json.Number:
		r, ok := new(big.Rat).SetString(v.String())
		if !ok || !r.IsInt() || new(big.Int).Abs(r.Num()).Cmp(big.NewInt(maxNumericID)) > 0 {
			return "", false
		}
		return "n" + r.Num().String(), true
	}
	return "", false
}

// batchVersions are the protocol versions the SDK serves that have
// JSON-RPC batches; from 2025-06-18 on it ends the session at a batch.
var batchVersions = map[string]bool{"2024-11-05": true, "2025-03-26": true}

// checkBatch refuses a batch the SDK would end the session for: one in a
// session not initialized with a version that has batches, or one with two
// requests of one id or a request whose id is still pending.
func checkBatch(batch []message, version string, p *pending) *rejection {
	if !batchVersions[version] {
		if version == "" {
			version = "none yet"
		}
		return &rejection{code: codeInvalidRequest, msg: fmt.Sprintf("batches are not part of MCP since protocol version 2025-06-18 (this session's: %s); send one message a line", version)}
	}
	seen := map[string]bool{}
	for _, m := range batch {
		id, ok := idKey(m.ID)
		if !ok || m.Method == nil {
			continue
		}
		if seen[id] || p.has(id) {
			return &rejection{code: codeInvalidRequest, msg: fmt.Sprintf("the id %s of a request of the batch is not unique among the requests not yet answered; give each its own", m.ID)}
		}
		seen[id] = true
	}
	return nil
}

// maxLine bounds one line of input, as the SDK bounds it by default.
const maxLine = mcp.DefaultMaxLineLength

// countingReader passes the SDK the JSON-RPC messages of its input, one a
// line, counting the requests among them; it answers any other line
// itself (Transport). At the end of its input it waits for the answers to
// the requests before it reports it.
type countingReader struct {
	r       io.Reader
	pending *pending
	drain   time.Duration
	// answer writes a response line to the client.
	answer func([]byte)

	br      *bufio.Reader
	version string // the protocol version the client's initialize asked for
	out     []byte // lines ready for the SDK
	err     error  // the input's end or failure, once reached
	done    bool   // the answers were waited for
}

// Read implements io.Reader.
func (c *countingReader) Read(b []byte) (int, error) {
	if c.br == nil {
		c.br = bufio.NewReader(c.r)
	}
	// Lines already buffered are counted now, so that a request is pending
	// as soon as it is read.
	for len(c.out) == 0 || c.lineBuffered() {
		if c.err != nil {
			if !c.done {
				c.done = true
				c.pending.wait(c.drain)
			}
			return 0, c.err
		}
		line, tooLong, err := c.readLine()
		if err != nil {
			c.err = err
		}
		c.accept(line, tooLong)
	}
	n := copy(b, c.out)
	c.out = c.out[n:]
	return n, nil
}

// lineBuffered reports whether a whole line is read and not yet accepted.
func (c *countingReader) lineBuffered() bool {
	if c.err != nil {
		return false
	}
	buf, _ := c.br.Peek(c.br.Buffered())
	return bytes.IndexByte(buf, '\n') >= 0
}

// readLine reads up to the next newline; a line over maxLine is read to
// its end and dropped (tooLong).
func (c *countingReader) readLine() (line []byte, tooLong bool, err error) {
	for {
		chunk, err := c.br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > maxLine {
				line, tooLong = nil, true
			} else {
				line = append(line, chunk...)
			}
		}
		if err != bufio.ErrBufferFull {
			return line, tooLong, err
		}
	}
}

// accept passes a line on to the SDK, or answers it when it is not a
// message.
func (c *countingReader) accept(line []byte, tooLong bool) {
	if tooLong {
		c.answer((&rejection{code: codeParseError, msg: fmt.Sprintf("the line is longer than %d bytes", maxLine)}).response())
		return
	}
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	msgs, rej := messages(line)
	if rej == nil && line[0] == '[' {
		rej = checkBatch(msgs, c.version, c.pending)
	}
	if rej != nil {
		c.answer(rej.response())
		return
	}
	for _, m := range msgs {
		if m.Method != nil && *m.Method == "initialize" {
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(m.Params, &p)
			c.version = p.ProtocolVersion
		}
		if id, ok := idKey(m.ID); ok && m.Method != nil {
			c.pending.add(id)
		}
	}
	c.out = append(append(c.out, line...), '\n')
}

// Close implements io.Closer; the input stays open.
func (c *countingReader) Close() error { return nil }

// answeringWriter marks requests answered once their responses are
// written. Writes are serialised: the SDK and countingReader both answer.
type answeringWriter struct {
	mu      sync.Mutex
	w       io.Writer
	pending *pending
}

// Write implements io.Writer. The SDK writes whole messages, one a line.
func (a *answeringWriter) Write(b []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	n, err := a.w.Write(b)
	for _, line := range bytes.Split(b[:n], []byte{'\n'}) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		msgs, _ := messages(line)
		for _, m := range msgs {
			if id, ok := idKey(m.ID); ok && m.Method == nil {
				a.pending.done(id)
			}
		}
	}
	return n, err
}

// writeLine writes one response line of countingReader's.
func (a *answeringWriter) writeLine(b []byte) { _, _ = a.Write(b) }

// Close implements io.Closer; the output stays open.
func (a *answeringWriter) Close() error { return nil }
