package claude

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// maxLineBytes bounds one line of Claude Code's output. Claude Code
// restates a tool's whole result in its user message, so lines can be
// large; a line beyond this is reported and skipped, never buffered whole.
const maxLineBytes = 32 << 20

// message is one line of Claude Code's stream-json output: its type, the
// members the bridge routes by, and the raw line for the type's own
// decoding. Bad is set, with Raw cut short, for a line that is not a JSON
// object with a type.
type message struct {
	Type            string          `json:"type"`
	Subtype         string          `json:"subtype"`
	RequestID       string          `json:"request_id"`
	Request         json.RawMessage `json:"request"`
	Event           json.RawMessage `json:"event"`
	Message         json.RawMessage `json:"message"`
	ParentToolUseID *string         `json:"parent_tool_use_id"`
	SessionID       string          `json:"session_id"`

	Raw []byte `json:"-"`
	Bad error  `json:"-"`
}

// subagent reports whether the message belongs to a subagent's own
// conversation (a Task tool call running), not to the session's.
func (m *message) subagent() bool { return m.ParentToolUseID != nil && *m.ParentToolUseID != "" }

// controlResponse is the "response" member of a control_response line.
type controlResponse struct {
	Subtype   string          `json:"subtype"`
	RequestID string          `json:"request_id"`
	Response  json.RawMessage `json:"response"`
	Error     string          `json:"error"`
}

// controlError is Claude Code's refusal of a control request.
type controlError struct{ msg string }

func (e *controlError) Error() string { return "claude refused the request: " + e.msg }

// errClosed is returned by requests on a connection whose process has gone.
var errClosed = errors.New("claude code's output closed")

// conn speaks Claude Code's stream-json protocol over a child's stdin and
// stdout: user messages and control requests go in; answers to our control
// requests are matched by request id, and every other line is queued, in
// order and unbounded, for one consumer, so a slow consumer never blocks an
// answer it waits for.
type conn struct {
	wmu sync.Mutex
	w   io.Writer

	mu      sync.Mutex
	nextID  int64
	pending map[string]chan *controlResponse
	queue   []*message
	ready   chan struct{} // signalled when queue grows
	closed  bool
	done    chan struct{} // closed when the stream ended
}

func newConn(r io.Reader, w io.Writer) *conn {
	c := &conn{w: w, pending: map[string]chan *controlResponse{}, ready: make(chan struct{}, 1), done: make(chan struct{})}
	go c.read(r)
	return c
}

func (c *conn) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br)
		if errors.Is(err, errLineTooLong) {
			c.enqueue(&message{Bad: err, Raw: line})
			continue
		}
		if err != nil {
			break
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		c.dispatch(line)
	}
	c.close()
}

var errLineTooLong = fmt.Errorf("a line of Claude Code's output is longer than %d bytes", maxLineBytes)

// readLine reads one line; an overlong one is drained and returned cut,
// with errLineTooLong.
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) <= maxLineBytes {
			buf = append(buf, chunk...)
		} else {
			tooLong = true
		}
		switch {
		case err == nil && tooLong:
			return buf[:min(len(buf), 200)], errLineTooLong
		case err == nil:
			return buf, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case len(buf) > 0 && errors.Is(err, io.EOF):
			return buf, nil
		default:
			return nil, err
		}
	}
}

func (c *conn) dispatch(line []byte) {
	m := &message{}
	if err := json.Unmarshal(line, m); err != nil {
		c.enqueue(&message{Bad: fmt.Errorf("not JSON: %v", err), Raw: cutBytes(line, 200)})
		return
	}
	if m.Type == "" {
		c.enqueue(&message{Bad: errors.New("a message without a type"), Raw: cutBytes(line, 200)})
		return
	}
	if m.Type == "control_response" {
		var env struct {
			Response controlResponse `json:"response"`
		}
		if json.Unmarshal(line, &env) == nil {
			c.mu.Lock()
			ch := c.pending[env.Response.RequestID]
			delete(c.pending, env.Response.RequestID)
			c.mu.Unlock()
			if ch != nil {
				ch <- &env.Response
			}
		}
		// An answer to a request we stopped waiting for is dropped.
		return
	}
	m.Raw = line
	c.enqueue(m)
}

func (c *conn) enqueue(m *message) {
	c.mu.Lock()
	c.queue = append(c.queue, m)
	c.mu.Unlock()
	select {
	case c.ready <- struct{}{}:
	default:
	}
}

// next returns the oldest queued message, or nil when none is queued. Wait
// on c.ready (and c.done) for more.
func (c *conn) next() *message {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.queue) == 0 {
		return nil
	}
	m := c.queue[0]
	c.queue[0] = nil
	c.queue = c.queue[1:]
	return m
}

func (c *conn) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.closed = true
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
	close(c.done)
}

// request sends a control request {subtype, fields...} and returns its
// answer's "response" member. It fails with errClosed when the stream
// ends first, with ctx's error when ctx ends first, or with
// *controlError.
func (c *conn) request(ctx context.Context, subtype string, fields map[string]any) (json.RawMessage, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, errClosed
	}
	c.nextID++
	id := "lookout-" + strconv.FormatInt(c.nextID, 10)
	ch := make(chan *controlResponse, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	req := map[string]any{"subtype": subtype}
	for k, v := range fields {
		req[k] = v
	}
	if err := c.send(map[string]any{"type": "control_request", "request_id": id, "request": req}); err != nil {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		return nil, err
	}
	var r *controlResponse
	var ok bool
	select {
	case r, ok = <-ch:
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		return nil, ctx.Err()
	}
	if !ok {
		return nil, errClosed
	}
	if r.Subtype == "error" {
		return nil, &controlError{msg: r.Error}
	}
	return r.Response, nil
}

// respond answers one of Claude Code's control requests.
func (c *conn) respond(requestID string, response any) error {
	return c.send(map[string]any{"type": "control_response",
		"response": map[string]any{"subtype": "success", "request_id": requestID, "response": response}})
}

// respondError refuses one of Claude Code's control requests.
func (c *conn) respondError(requestID, msg string) error {
	return c.send(map[string]any{"type": "control_response",
		"response": map[string]any{"subtype": "error", "request_id": requestID, "error": msg}})
}

// sendUser sends a prompt: one user message, which starts a turn.
func (c *conn) sendUser(text string) error {
	return c.send(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text},
		"parent_tool_use_id": nil, "session_id": ""})
}

func (c *conn) send(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.w.Write(b); err != nil {
		return fmt.Errorf("%w: %v", errClosed, err)
	}
	return nil
}

func cutBytes(b []byte, n int) []byte { return []byte(cut(string(b), n)) }

// cut shortens s to at most n bytes on a UTF-8 boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
