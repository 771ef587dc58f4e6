package sync

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	gosync "sync"
	"time"

	"github.com/gorilla/websocket"
)

// Wire limits (docs/protocol.md §1).
const (
	// deadAfter: a connection that hears nothing (no frame, no ping) for
	// this long is dead.
	deadAfter = 45 * time.Second
	// maxFrame is the largest frame the client reads.
	maxFrame = 4 << 20
	// writeTimeout bounds one frame write.
	writeTimeout = 10 * time.Second
	// leaveTimeout bounds how long closing waits to send a last request.
	leaveTimeout = time.Second
	// dialTimeout bounds the TCP connect plus the WebSocket handshake.
	dialTimeout = 10 * time.Second
)

// socketDeadline is a socket deadline d from now. Socket deadlines are
// the operating system's, in real time: they are the one use of the
// wall clock that does not go through the loop's clock.
func socketDeadline(d time.Duration) time.Time { return time.Now().Add(d) }

// linkError is why a link could not be made or ended, classified for
// Freshness. It is the loop's own; one-shot callers (ListSessions,
// CreateSession) get a *ConnectError made from it.
type linkError struct {
	// Persistent refusals (401, 403, 404, unknown session, a peer that
	// breaks the protocol) are shown as Error; the others as Reconnecting.
	Persistent bool
	Msg        string
	// Status is the HTTP status of a refused handshake (0 otherwise).
	Status int
	// Reason is the Freshness.Reason it maps to.
	Reason string
	// Err is the typed cause, if any (an *UnprovenHostError).
	Err error
}

func (e *linkError) Unwrap() error { return e.Err }

func (e *linkError) reason() string {
	if e.Reason != "" {
		return e.Reason
	}
	if e.Persistent {
		return ReasonProtocol
	}
	return ReasonUnreachable
}

func (e *linkError) Error() string { return e.Msg }

// wsConn is one WebSocket connection: a reader goroutine delivering frames
// on Frames, and a writer goroutine draining a queue, so that the client's
// goroutine never blocks on the socket.
type wsConn struct {
	ws      *websocket.Conn
	silence time.Duration
	frames  chan []byte
	out     chan []byte
	stop    chan struct{}
	dead    chan struct{} // closed when the reader ends
	err     error         // why the reader ended (read after dead)
	once    gosync.Once
	flushed chan struct{} // closed by the writer when it meets the nil mark CloseAfter queues

	wmu     gosync.Mutex // guards writes and closing (write)
	writes  int          // writes in flight
	closing bool         // Close has begun
}

// dialWS opens the WebSocket at cred.URL with cred's bearer token, if
// any; a wss:// URL is verified with tlsConf (nil: the system's roots). A
// connection that hears nothing (no frame, no ping) for silence is dead.
func dialWS(ctx context.Context, cred Credential, tlsConf *tls.Config, silence time.Duration) (*wsConn, error) {
	d := websocket.Dialer{
		TLSClientConfig:  tlsConf,
		HandshakeTimeout: dialTimeout,
		NetDialContext:   (&net.Dialer{Timeout: dialTimeout}).DialContext,
		Proxy:            http.ProxyFromEnvironment,
	}
	if cred.Source == SourceLocalHost {
		if err := requireProof(&d, cred, tlsConf); err != nil {
			return nil, &linkError{Persistent: true, Msg: fmt.Sprintf("bad host URL %s: %v", redactURL(cred.URL), err)}
		}
	}
	h := http.Header{}
	if cred.Token != "" {
		h.Set("Authorization", "Bearer "+string(cred.Token))
	}
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	ws, resp, err := d.DialContext(dctx, cred.URL, h)
	if err != nil {
		return nil, classifyDialError(cred, resp, err)
	}
	return newWSConn(ws, silence), nil
}

// newWSConn starts the reader and the writer of an open WebSocket.
func newWSConn(ws *websocket.Conn, silence time.Duration) *wsConn {
	ws.SetReadLimit(maxFrame + 1024)
	c := &wsConn{
		ws:      ws,
		silence: silence,
		frames:  make(chan []byte, 256),
		out:     make(chan []byte, 1024),
		stop:    make(chan struct{}),
		dead:    make(chan struct{}),
		flushed: make(chan struct{}),
	}
	_ = ws.SetReadDeadline(socketDeadline(silence))
	ws.SetPingHandler(func(data string) error {
		// A ping is a sign of life: extend the deadline, then answer it.
		_ = ws.SetReadDeadline(socketDeadline(silence))
		_ = c.write(func() error {
			return ws.WriteControl(websocket.PongMessage, []byte(data), socketDeadline(writeTimeout))
		})
		return nil
	})
	go c.readLoop()
	go c.writeLoop()
	return c
}

// write runs one write (a frame of the writer's, a pong) and, when no
// other is in flight, clears the socket's write deadline after it. A
// deadline outlives the write it bounded: left armed, it would wake the
// idle client writeTimeout after every pong. Each write arms its own.
// Once Close has begun, the deadline is Close's.
func (c *wsConn) write(fn func() error) error {
	c.wmu.Lock()
	c.writes++
	c.wmu.Unlock()
	err := fn()
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.writes--; c.writes == 0 && !c.closing {
		_ = c.ws.NetConn().SetWriteDeadline(time.Time{}) // a closed socket has none to clear
	}
	return err
}

func classifyDialError(cred Credential, resp *http.Response, err error) error {
	url := redactURL(cred.URL)
	if u, ok := asUnproven(err); ok {
		if u.unreachable {
			return &linkError{Reason: ReasonUnreachable, Msg: u.Error(), Err: u}
		}
		return &linkError{Persistent: true, Reason: ReasonUnproven, Msg: u.Error(), Err: u}
	}
	if resp != nil {
		switch resp.StatusCode {
		case http.StatusUnauthorized:
			return &linkError{Persistent: true, Status: 401, Reason: ReasonAuth, Msg: unauthorizedMsg(cred)}
		case http.StatusForbidden:
			return &linkError{Persistent: true, Status: 403, Reason: ReasonAuth, Msg: "the host refused the connection (403 Forbidden)"}
		case http.StatusNotFound:
			return &linkError{Persistent: true, Status: 404, Reason: ReasonEndpoint, Msg: fmt.Sprintf("no session host endpoint at %s (404 Not Found)", url)}
		}
		return &linkError{Status: resp.StatusCode, Msg: fmt.Sprintf("handshake with %s failed: HTTP %d", url, resp.StatusCode)}
	}
	return &linkError{Msg: fmt.Sprintf("cannot reach %s: %v", url, err)}
}

// unauthorizedMsg explains a 401: which token was refused, or that none
// was sent and how to supply one. It never contains the token.
func unauthorizedMsg(cred Credential) string {
	if cred.Token == "" && cred.Source == SourceNone {
		hint := cred.Hint
		if hint == "" {
			hint = "no token was sent: pass --token-file FILE or --token, set LOOKOUT_TOKEN, or run \"lookout auth login URL\""
		}
		return "the host requires a token (401 Unauthorized); " + hint
	}
	return fmt.Sprintf("the host refused the token from %s (401 Unauthorized): check that it is this host's token, or give another with --token-file, LOOKOUT_TOKEN or \"lookout auth login URL\"", cred.Source)
}

func (c *wsConn) readLoop() {
	defer close(c.dead)
	var buf bytes.Buffer
	for {
		typ, data, err := c.readFrame(&buf)
		if err != nil {
			c.err = err
			c.Close()
			return
		}
		_ = c.ws.SetReadDeadline(socketDeadline(c.silence))
		if typ != websocket.TextMessage {
			continue
		}
		select {
		case c.frames <- data:
		case <-c.stop:
			c.err = errors.New("closed")
			return
		}
	}
}

// keptReadBuffer is the largest read buffer readFrame keeps between
// frames; one grown by a larger frame (a snapshot, a completed long
// message) is dropped rather than held for the connection's life.
const keptReadBuffer = 64 << 10

// readFrame reads the next message through buf and returns a copy of
// exactly its size: a frame outlives the read (an Event keeps its params),
// and a whole-message read would start every frame at 512 bytes, twice a
// typical delta frame.
func (c *wsConn) readFrame(buf *bytes.Buffer) (int, []byte, error) {
	typ, r, err := c.ws.NextReader()
	if err != nil {
		return typ, nil, err
	}
	buf.Reset()
	_, err = buf.ReadFrom(r)
	data := bytes.Clone(buf.Bytes())
	if buf.Cap() > keptReadBuffer {
		*buf = bytes.Buffer{}
	}
	return typ, data, err
}

func (c *wsConn) writeLoop() {
	for {
		select {
		case <-c.stop:
			return
		case b := <-c.out:
			if b == nil { // CloseAfter's mark: everything before it is written
				close(c.flushed)
				<-c.stop
				return
			}
			if err := c.write(func() error {
				_ = c.ws.SetWriteDeadline(socketDeadline(writeTimeout))
				return c.ws.WriteMessage(websocket.TextMessage, b)
			}); err != nil {
				c.Close()
				return
			}
		}
	}
}

// Frames delivers the text frames received, in order.
func (c *wsConn) Frames() <-chan []byte { return c.frames }

// Dead is closed when the reader has ended; Err then says why.
func (c *wsConn) Dead() <-chan struct{} { return c.dead }

// Err is why the connection ended (valid once Dead is closed).
func (c *wsConn) Err() error { return c.err }

// Send queues one frame. It never blocks: a connection whose queue is full
// is too slow to be useful and is closed.
func (c *wsConn) Send(b []byte) {
	select {
	case c.out <- b:
	case <-c.stop:
	default:
		c.Close()
	}
}

// CloseAfter sends last (a final request, such as session/unsubscribe)
// after what is already queued, waits for the writer to put it on the wire
// (at most leaveTimeout), then closes. It never blocks longer than that.
func (c *wsConn) CloseAfter(last []byte) {
	queued := true
	for _, b := range [][]byte{last, nil} {
		select {
		case c.out <- b:
		default:
			queued = false
		}
	}
	if queued {
		t := time.NewTimer(leaveTimeout)
		select {
		case <-c.flushed:
		case <-c.dead:
		case <-t.C:
		}
		t.Stop()
	}
	c.Close()
}

// Close ends the connection (idempotent).
func (c *wsConn) Close() {
	c.once.Do(func() {
		c.wmu.Lock()
		c.closing = true
		c.wmu.Unlock()
		close(c.stop)
		_ = c.ws.WriteControl(websocket.CloseMessage,
			websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), socketDeadline(time.Second))
		_ = c.ws.Close()
	})
}

// request is an outgoing JSON-RPC request.
type request struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int64  `json:"id"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

func encodeRequest(id int64, method string, params any) []byte {
	b, err := json.Marshal(request{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	if err != nil {
		// The params are the client's own maps of strings; should one ever
		// fail to encode, the host answers the bare request with an
		// invalid-params error, which the caller reports.
		b, _ = json.Marshal(request{JSONRPC: "2.0", ID: id, Method: method})
	}
	return b
}
