// Package hosttest starts real Lookout hosts for tests and talks to them
// over a real loopback WebSocket with a small JSON-RPC client. Other
// packages' tests (sync, tui) use it to get "a host and a connection" in
// two lines.
package hosttest

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// Timeout bounds every wait of a Client (a safety net against hangs, not a
// performance threshold).
var Timeout = 30 * time.Second

// Start starts a host for t on a free loopback port with Pace 0. Unless
// opts says otherwise, a durable host gets a fresh t.TempDir() data
// directory. The host is closed when the test ends.
func Start(t testing.TB, opts host.Options) *host.Host {
	t.Helper()
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if opts.DataDir == "" && !opts.Ephemeral {
		opts.DataDir = t.TempDir()
	}
	h, err := host.Start(context.Background(), opts)
	if err != nil {
		t.Fatalf("hosttest: start host: %v", err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// Client is a JSON-RPC 2.0 client over one WebSocket. A reader goroutine
// matches responses to calls; every other frame (notifications, and error
// answers with id null) is queued, unbounded, for Next.
type Client struct {
	ws *websocket.Conn

	wmu sync.Mutex // serialises writes

	mu      sync.Mutex
	nextID  int
	waiters map[string]chan *model.Frame
	frames  []*model.Frame
	signal  chan struct{}

	done      chan struct{}
	closeErr  error
	closeCode int
}

// Dial connects to h with its token.
func Dial(t testing.TB, h *host.Host) *Client {
	t.Helper()
	hdr := http.Header{}
	if tok := h.Token(); tok != "" {
		hdr.Set("Authorization", "Bearer "+tok)
	}
	c, _, err := DialURL(h.URL(), hdr)
	if err != nil {
		t.Fatalf("hosttest: dial %s: %v", h.URL(), err)
	}
	t.Cleanup(c.Close)
	return c
}

// DialURL connects to a WebSocket URL with the given request headers. On a
// refused upgrade it returns the HTTP response (for its status code).
func DialURL(url string, header http.Header) (*Client, *http.Response, error) {
	return DialURLTLS(url, header, nil)
}

// DialURLTLS is DialURL with a TLS configuration for wss:// URLs (nil:
// the system's roots).
func DialURLTLS(url string, header http.Header, conf *tls.Config) (*Client, *http.Response, error) {
	d := websocket.Dialer{HandshakeTimeout: Timeout, TLSClientConfig: conf}
	ws, resp, err := d.Dial(url, header)
	if err != nil {
		return nil, resp, err
	}
	ws.SetReadLimit(64 << 20)
	c := &Client{ws: ws, waiters: map[string]chan *model.Frame{}, signal: make(chan struct{}, 1), done: make(chan struct{})}
	go c.readLoop()
	return c, resp, nil
}

func (c *Client) readLoop() {
	defer close(c.done)
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			c.mu.Lock()
			c.closeErr = err
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				c.closeCode = ce.Code
			}
			c.mu.Unlock()
			return
		}
		f, err := model.ParseFrame(data)
		if err != nil {
			continue
		}
		c.mu.Lock()
		if f.Method == "" && len(f.ID) > 0 {
			if w, ok := c.waiters[string(f.ID)]; ok {
				delete(c.waiters, string(f.ID))
				c.mu.Unlock()
				w <- f
				continue
			}
		}
		c.frames = append(c.frames, f)
		c.mu.Unlock()
		select {
		case c.signal <- struct{}{}:
		default:
		}
	}
}

// Conn is the underlying WebSocket, for tests that write raw frames.
func (c *Client) Conn() *websocket.Conn { return c.ws }

// Send writes one raw text frame.
func (c *Client) Send(raw []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.ws.WriteMessage(websocket.TextMessage, raw)
}

// Call sends a request and waits for its answer: the result, or the
// JSON-RPC error, or a transport error.
func (c *Client) Call(method string, params any) (json.RawMessage, *model.RPCError, error) {
	c.mu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	w := make(chan *model.Frame, 1)
	c.waiters[id] = w
	c.mu.Unlock()
	req := map[string]any{"jsonrpc": "2.0", "id": c.nextIDNum(id), "method": method}
	if params != nil {
		req["params"] = params
	}
	b, err := json.Marshal(req)
	if err != nil {
		return nil, nil, err
	}
	if err := c.Send(b); err != nil {
		return nil, nil, err
	}
	select {
	case f := <-w:
		if f.Error != nil {
			return nil, f.Error, nil
		}
		return f.Result, nil, nil
	case <-c.done:
		return nil, nil, fmt.Errorf("connection closed: %w", c.CloseErr())
	case <-time.After(Timeout):
		return nil, nil, fmt.Errorf("no answer to %s within %v", method, Timeout)
	}
}

func (c *Client) nextIDNum(id string) int {
	n, _ := strconv.Atoi(id)
	return n
}

// MustCall calls and decodes the result into out (when non-nil), failing
// the test on any error.
func (c *Client) MustCall(t testing.TB, method string, params, out any) {
	t.Helper()
	res, rerr, err := c.Call(method, params)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	if rerr != nil {
		t.Fatalf("%s: error %d %s %s", method, rerr.Code, rerr.Message, rerr.Data)
	}
	if out != nil {
		if err := json.Unmarshal(res, out); err != nil {
			t.Fatalf("%s: decode result: %v", method, err)
		}
	}
}

// Next returns the next queued frame that was not an answer to a Call, or
// an error when none arrives within Timeout or the connection ended.
func (c *Client) Next() (*model.Frame, error) {
	deadline := time.After(Timeout)
	for {
		c.mu.Lock()
		if len(c.frames) > 0 {
			f := c.frames[0]
			c.frames = c.frames[1:]
			c.mu.Unlock()
			return f, nil
		}
		c.mu.Unlock()
		select {
		case <-c.signal:
		case <-c.done:
			c.mu.Lock()
			n := len(c.frames)
			c.mu.Unlock()
			if n == 0 {
				return nil, fmt.Errorf("connection closed: %w", c.CloseErr())
			}
		case <-deadline:
			return nil, fmt.Errorf("no frame within %v", Timeout)
		}
	}
}

// NextEvent returns the next session notification, decoded.
func (c *Client) NextEvent() (*model.Event, error) {
	for {
		f, err := c.Next()
		if err != nil {
			return nil, err
		}
		if f.Method == "" {
			continue
		}
		ev, err := model.DecodeNotification(f.Method, f.Params)
		if err != nil {
			return nil, err
		}
		return ev, nil
	}
}

// Pending returns how many unread frames are queued.
func (c *Client) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.frames)
}

// Done is closed when the connection has ended.
func (c *Client) Done() <-chan struct{} { return c.done }

// CloseErr is the error that ended the connection (nil while open).
func (c *Client) CloseErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closeErr
}

// CloseCode is the WebSocket close code the host sent (0 if none yet).
func (c *Client) CloseCode() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closeCode
}

// Close closes the connection.
func (c *Client) Close() { c.ws.Close() }

// SubscribeResult is the session/subscribe answer.
type SubscribeResult struct {
	Epoch    string          `json:"epoch"`
	Head     string          `json:"head"`
	Delivery string          `json:"delivery"`
	Snapshot *model.Snapshot `json:"snapshot"`
}

// Subscribe subscribes to a session (cursor and epoch may be "", limit 0
// means the host's default).
func (c *Client) Subscribe(sessionID, cursor, epoch string, limit int) (*SubscribeResult, error) {
	p := map[string]any{"sessionId": sessionID}
	if cursor != "" {
		p["cursor"] = cursor
	}
	if epoch != "" {
		p["epoch"] = epoch
	}
	if limit > 0 {
		p["limit"] = limit
	}
	res, rerr, err := c.Call("session/subscribe", p)
	if err != nil {
		return nil, err
	}
	if rerr != nil {
		return nil, rerr
	}
	var r SubscribeResult
	if err := json.Unmarshal(res, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Submit submits a prompt and returns the answer's status and turnId.
func (c *Client) Submit(sessionID, commandID, text string) (status, turnID string, err error) {
	res, rerr, err := c.Call("turn/submit", map[string]any{"sessionId": sessionID, "commandId": commandID, "text": text})
	if err != nil {
		return "", "", err
	}
	if rerr != nil {
		return "", "", rerr
	}
	var r struct {
		Status string `json:"status"`
		TurnID string `json:"turnId"`
	}
	err = json.Unmarshal(res, &r)
	return r.Status, r.TurnID, err
}

// WaitEvent reads notifications, folding each into st when st is non-nil,
// until one satisfies match, and returns it. Every event read is also
// returned in seen, in order.
func (c *Client) WaitEvent(st *model.State, match func(*model.Event) bool) (ev *model.Event, seen []*model.Event, err error) {
	for {
		ev, err := c.NextEvent()
		if err != nil {
			return nil, seen, err
		}
		seen = append(seen, ev)
		if st != nil {
			if err := st.Apply(ev); err != nil {
				return nil, seen, fmt.Errorf("fold: %w", err)
			}
		}
		if match(ev) {
			return ev, seen, nil
		}
	}
}

// TurnCompleted matches the turn/completed of turnID.
func TurnCompleted(turnID string) func(*model.Event) bool {
	return func(ev *model.Event) bool { return ev.Method == model.MethodTurnCompleted && ev.TurnID == turnID }
}
