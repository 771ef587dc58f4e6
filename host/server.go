package host

import (
	"crypto/subtle"
	"crypto/tls"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/websocket"
	"github.com/lookout-sh/lookout/model"
)

var upgrader = websocket.Upgrader{
	ReadBufferSize:  16 << 10,
	WriteBufferSize: 32 << 10,
	// The Origin check is done before upgrading (serveWS), with the
	// protocol's rule rather than gorilla's.
	CheckOrigin: func(*http.Request) bool { return true },
}

// serveWS authenticates and upgrades one client, then runs its reader.
func (h *Host) serveWS(w http.ResponseWriter, r *http.Request) {
	if origin := r.Header.Get("Origin"); origin != "" && !sameOrigin(origin, r.Host) {
		http.Error(w, "forbidden: cross-origin WebSocket upgrade", http.StatusForbidden)
		return
	}
	if h.opts.NoAuth && !isLoopback(r.Host) {
		// Without a token, only a loopback Host header is trusted: a page
		// on a rebound DNS name (Origin and Host both "evil.example") must
		// not reach a no-auth host.
		http.Error(w, "forbidden: a host without a token only answers to loopback names", http.StatusForbidden)
		return
	}
	if !h.opts.NoAuth && !h.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="lookout"`)
		http.Error(w, "unauthorized: a bearer token is required (Authorization header or ?token=)", http.StatusUnauthorized)
		return
	}
	if !h.reserveConn() {
		w.Header().Set("Retry-After", "5")
		http.Error(w, "service unavailable: the host has as many connections as it serves", http.StatusServiceUnavailable)
		return
	}
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		h.releaseConn()
		return // the upgrader has answered
	}
	ws.SetReadLimit(MaxFrameBytes)
	if n := h.opts.SendBuffer; n > 0 {
		nc := ws.UnderlyingConn()
		if tc, ok := nc.(*tls.Conn); ok {
			nc = tc.NetConn()
		}
		if tc, ok := nc.(*net.TCPConn); ok {
			if err := tc.SetWriteBuffer(n); err != nil {
				h.log.Debug("could not size the socket's send buffer", "err", err)
			}
		}
	}
	c := newConn(h, ws, h.opts.OutboundQueue, h.opts.OutboundBytes)
	c.invalid.burst = h.opts.InvalidFrames
	if !h.addConn(c) {
		_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "host shutting down"), time.Now().Add(time.Second)) // closing either way
		ws.Close()
		return
	}
	go c.writeLoop()
	c.readLoop()
}

func (h *Host) authorized(r *http.Request) bool {
	ok := func(tok string) bool {
		tok = strings.TrimSpace(tok)
		return tok != "" && subtle.ConstantTimeCompare([]byte(tok), []byte(h.token)) == 1
	}
	if a := r.Header.Get("Authorization"); len(a) > 7 && strings.EqualFold(a[:7], "bearer ") && ok(a[7:]) {
		return true
	}
	return ok(r.URL.Query().Get("token"))
}

// readLoop reads frames until the connection ends, answering each request
// in order. Once the connection is closing (a close frame is on its way)
// it reads on, discarding requests, until the client's close arrives or
// the closing deadline passes.
func (c *conn) readLoop() {
	defer c.finish()
	_ = c.ws.SetReadDeadline(time.Now().Add(ReadTimeout)) // fails only on a closed socket, which ReadMessage reports
	c.ws.SetPongHandler(func(string) error {
		c.extendRead()
		return nil
	})
	for {
		typ, data, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		if !c.extendRead() {
			continue
		}
		if typ != websocket.TextMessage {
			c.invalidFrame(nullID, &rpcError{Code: model.CodeInvalidRequest, Message: "invalid request: only text frames are accepted"})
			continue
		}
		c.simulateLatency()
		c.handle(data)
	}
}

// simulateLatency delays a request by Options.Latency, as a slow link
// would.
func (c *conn) simulateLatency() {
	if d := c.h.opts.Latency; d > 0 {
		time.Sleep(d)
	}
}

// invalidFrame answers a frame that is not a request the host serves,
// unless the connection sends such frames faster than invalidMeter lets
// it: then it is closed with 1008, and its flood costs the host no more.
func (c *conn) invalidFrame(id json.RawMessage, rerr *rpcError) {
	if c.invalid.allow(time.Now()) {
		c.reply(id, nil, rerr)
		return
	}
	c.mu.Lock()
	closing := c.closing
	c.closeLocked(websocket.ClosePolicyViolation, "too many invalid frames")
	c.mu.Unlock()
	if !closing && c.h != nil {
		c.h.invalidCloses.Add(1)
		c.h.log.Warn("closed a connection that sent a flood of invalid frames")
	}
}

func (c *conn) reply(id json.RawMessage, result any, rerr *rpcError) {
	c.enqueue(outMsg{data: responseFrame(id, result, rerr), kind: kindResponse})
}
