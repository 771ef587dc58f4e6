package codex

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

// maxLineBytes bounds one line of app-server output. Codex restates a
// command's whole output in item/completed, so lines can be large; a line
// beyond this is reported and skipped, never buffered whole.
const maxLineBytes = 32 << 20

// message is one line from the app-server: a notification (Method set, ID
// nil), a server-to-client request (Method and ID set), or a reply to one
// of our requests (consumed inside rpcConn, never queued). Bad is set, with
// Raw, for a line that is not a JSON-RPC message.
type message struct {
	Method string          `json:"method"`
	ID     json.RawMessage `json:"id"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`

	Bad error  `json:"-"`
	Raw string `json:"-"`
}

// rpcError is a JSON-RPC error answer.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("codex answered %d: %s", e.Code, e.Message) }

// errClosed is returned by calls on a connection whose process has gone.
var errClosed = errors.New("codex app-server connection closed")

// rpcConn speaks Codex's JSON-RPC dialect (JSON lines, no "jsonrpc"
// member) over a child's stdin and stdout. Replies are matched to calls;
// everything else is queued, in order and unbounded, for one consumer, so
// a slow consumer never blocks a reply it is waiting for.
type rpcConn struct {
	wmu sync.Mutex
	w   io.Writer

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan *message
	queue   []*message
	ready   chan struct{} // signalled when queue grows
	closed  bool
	err     error         // why the stream ended
	done    chan struct{} // closed when the stream ended
}

func newRPCConn(r io.Reader, w io.Writer) *rpcConn {
	c := &rpcConn{w: w, pending: map[int64]chan *message{}, ready: make(chan struct{}, 1), done: make(chan struct{})}
	go c.read(r)
	return c
}

func (c *rpcConn) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	var err error
	for {
		var line []byte
		line, err = readLine(br)
		if errors.Is(err, errLineTooLong) {
			c.enqueue(&message{Bad: err, Raw: string(line)})
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
	if errors.Is(err, io.EOF) {
		err = io.EOF
	}
	c.close(err)
}

var errLineTooLong = fmt.Errorf("a line of app-server output is longer than %d bytes", maxLineBytes)

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

func (c *rpcConn) dispatch(line []byte) {
	m := &message{}
	if err := json.Unmarshal(line, m); err != nil {
		c.enqueue(&message{Bad: fmt.Errorf("not JSON: %v", err), Raw: cut(string(line), 200)})
		return
	}
	if m.Method == "" {
		if len(m.ID) == 0 || (m.Result == nil && m.Error == nil) {
			c.enqueue(&message{Bad: errors.New("neither a request, a notification nor a reply"), Raw: cut(string(line), 200)})
			return
		}
		id, err := strconv.ParseInt(string(m.ID), 10, 64)
		c.mu.Lock()
		ch := c.pending[id]
		delete(c.pending, id)
		c.mu.Unlock()
		if err != nil || ch == nil {
			c.enqueue(&message{Bad: errors.New("a reply to no request of ours"), Raw: cut(string(line), 200)})
			return
		}
		ch <- m
		return
	}
	c.enqueue(m)
}

func (c *rpcConn) enqueue(m *message) {
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
func (c *rpcConn) next() *message {
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

func (c *rpcConn) close(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.closed, c.err = true, err
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
	close(c.done)
}

// call sends a request and returns its result. It fails with errClosed
// when the stream ends first, with ctx's error when ctx ends first, or
// with *rpcError.
func (c *rpcConn) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, errClosed
	}
	c.nextID++
	id := c.nextID
	ch := make(chan *message, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	if err := c.send(map[string]any{"id": id, "method": method, "params": params}); err != nil {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		return nil, err
	}
	var m *message
	var ok bool
	select {
	case m, ok = <-ch:
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		return nil, ctx.Err()
	}
	if !ok {
		return nil, errClosed
	}
	if m.Error != nil {
		return nil, m.Error
	}
	return m.Result, nil
}

// notify sends a notification.
func (c *rpcConn) notify(method string, params any) error {
	msg := map[string]any{"method": method}
	if params != nil {
		msg["params"] = params
	}
	return c.send(msg)
}

// reply answers a server-to-client request.
func (c *rpcConn) reply(id json.RawMessage, result any) error {
	return c.send(map[string]any{"id": id, "result": result})
}

// replyError refuses a server-to-client request.
func (c *rpcConn) replyError(id json.RawMessage, code int, msg string) error {
	return c.send(map[string]any{"id": id, "error": rpcError{Code: code, Message: msg}})
}

func (c *rpcConn) send(msg any) error {
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

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
