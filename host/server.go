package host

import (
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"time"

	"crypto/subtle"
	"crypto/tls"

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
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered
	}
	ws.SetReadLimit(MaxFrameBytes)
	if n := h.opts.SendBuffer; n > 0 {
		nc := ws.UnderlyingConn()
		if tc, ok := nc.(*tls.Conn); ok {
			nc = tc.NetConn()
		}
		if tc, ok := nc.(*net.TCPConn); ok {
			tc.SetWriteBuffer(n)
		}
	}
	c := newConn(h, ws, h.opts.OutboundQueue, h.opts.OutboundBytes)
	if !h.addConn(c) {
		ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(1001, "host shutting down"), time.Now().Add(time.Second))
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
	c.ws.SetReadDeadline(time.Now().Add(ReadTimeout))
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
			c.reply(nullID, nil, &rpcError{Code: model.CodeInvalidRequest, Message: "invalid request: only text frames are accepted"})
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

func (c *conn) reply(id json.RawMessage, result any, rerr *rpcError) {
	c.enqueue(outMsg{data: responseFrame(id, result, rerr), kind: kindResponse})
}

// requestHandler answers one request: a result or an error, or
// answeredAlready when it queued its own answer.
type requestHandler func(c *conn, req *incoming) (any, *rpcError)

// answeredAlready is the result of a handler that queued its answer itself
// (session/subscribe answers under the session lock, ahead of the events
// that follow it).
var answeredAlready = new(struct{ answered bool })

// requestHandlers maps each protocol method to its handler.
var requestHandlers = map[string]requestHandler{
	"initialize":          paramsHandler((*conn).initialize),
	"session/list":        paramsHandler((*conn).listSessions),
	"session/create":      paramsHandler((*conn).createSession),
	"session/subscribe":   (*conn).subscribe,
	"session/unsubscribe": paramsHandler((*conn).unsubscribe),
	"view/page":           paramsHandler((*conn).page),
	"turn/submit":         paramsHandler((*conn).submit),
	"command/replay":      paramsHandler((*conn).replay),
	"turn/unqueue":        paramsHandler((*conn).unqueue),
	"turn/interrupt":      paramsHandler((*conn).interrupt),
	"approval/respond":    paramsHandler((*conn).respond),
}

// paramsHandler adapts a handler that needs only the request's params.
func paramsHandler(f func(c *conn, params json.RawMessage) (any, *rpcError)) requestHandler {
	return func(c *conn, req *incoming) (any, *rpcError) { return f(c, req.params) }
}

// handle answers one frame. Nothing a client sends can stop the host or
// touch other connections: the worst it gets is an error answer.
func (c *conn) handle(data []byte) {
	req, id, rerr := parseIncoming(data)
	if rerr != nil {
		c.reply(id, nil, rerr)
		return
	}
	if req == nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			c.h.log.Error("request handler panicked", "method", req.method, "panic", r)
			c.reply(req.id, nil, &rpcError{Code: codeInternalError, Message: "internal error"})
		}
	}()
	handler, ok := requestHandlers[req.method]
	if !ok {
		c.reply(req.id, nil, &rpcError{Code: model.CodeMethodNotFound, Message: "method not found: " + req.method})
		return
	}
	result, rerr := handler(c, req)
	if rerr == nil && result == answeredAlready {
		return
	}
	c.reply(req.id, result, rerr)
}

func (c *conn) initialize(params json.RawMessage) (any, *rpcError) {
	var p struct {
		ClientInfo *struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"clientInfo"`
		Capabilities *struct {
			Deltas *bool `json:"deltas"`
		} `json:"capabilities"`
	}
	if e := decodeParams(params, &p); e != nil {
		return nil, e
	}
	if p.Capabilities != nil && p.Capabilities.Deltas != nil {
		c.deltas.Store(*p.Capabilities.Deltas)
	}
	return map[string]any{
		"serverInfo":      map[string]string{"name": "lookout-host", "version": Version},
		"protocolVersion": 1,
		"durability":      c.h.Durability(),
		"features": map[string]any{
			"agent":          agentName(c.h),
			"deltas":         c.deltas.Load(),
			"fieldBound":     c.h.fieldBound(),
			"maxFrameBytes":  MaxFrameBytes,
			"pageBytes":      PageBytes,
			"maxPageLimit":   MaxPageLimit,
			"maxQueuedTurns": MaxQueuedTurns,
			"commandReplay":  true,
			"approvals":      true,
		},
	}, nil
}

func agentName(h *Host) string {
	switch {
	case h.opts.AgentImpl == nil:
		return "demo"
	case h.opts.Agent != "":
		return h.opts.Agent
	}
	return "custom"
}

func (c *conn) listSessions(params json.RawMessage) (any, *rpcError) {
	var p struct {
		Limit  *int    `json:"limit"`
		Cursor *string `json:"cursor"`
	}
	if e := decodeParams(params, &p); e != nil {
		return nil, e
	}
	limit := DefaultListLimit
	if p.Limit != nil {
		if *p.Limit < 1 {
			return nil, errInvalidParams("invalid params: limit must be at least 1")
		}
		limit = min(*p.Limit, MaxPageLimit)
	}
	after := ""
	if p.Cursor != nil && *p.Cursor != "" {
		var ok bool
		if after, ok = parseListCursor(*p.Cursor); !ok || c.h.session(after) == nil {
			return nil, errInvalidParams("invalid params: cursor is not a session/list cursor of this host")
		}
	}
	return listPage(c.h.sessionList(), after, limit, PageBytes), nil
}

func (c *conn) createSession(params json.RawMessage) (any, *rpcError) {
	var p struct {
		Title *string `json:"title"`
	}
	if e := decodeParams(params, &p); e != nil {
		return nil, e
	}
	title := ""
	if p.Title != nil {
		title = *p.Title
	}
	s, err := c.h.createSession(title)
	if errors.Is(err, ErrTooManySessions) {
		return nil, &rpcError{Code: model.CodeBackpressured, Message: "backpressured: " + err.Error(), Data: map[string]string{"reason": reasonTooManySessions}}
	}
	if err != nil {
		return nil, &rpcError{Code: model.CodeBackpressured, Message: "backpressured: " + err.Error()}
	}
	return map[string]any{"sessionId": s.id}, nil
}

// sessionParam finds the session named by a request's sessionId.
func (c *conn) sessionParam(sid *string) (*session, *rpcError) {
	if sid == nil || *sid == "" {
		return nil, errInvalidParams("invalid params: sessionId is required")
	}
	s, err := c.h.loadedSession(*sid)
	if err != nil {
		return nil, errJournalUnavailable(err)
	}
	if s == nil {
		return nil, errUnknownSession(*sid)
	}
	return s, nil
}

// sessionParams is the member every session request has; request param
// structs embed it.
type sessionParams struct {
	SessionID *string `json:"sessionId"`
}

// decodeSession decodes params into p, which embeds sp, and finds the
// session sp names.
func (c *conn) decodeSession(params json.RawMessage, p any, sp *sessionParams) (*session, *rpcError) {
	if e := decodeParams(params, p); e != nil {
		return nil, e
	}
	return c.sessionParam(sp.SessionID)
}

// required returns a non-empty string member or the invalid-params error
// naming it.
func required(v *string, name string) (string, *rpcError) {
	if v == nil || *v == "" {
		return "", errInvalidParams("invalid params: " + name + " is required")
	}
	return *v, nil
}

// acked answers {} for a request whose action returned e, once what it
// emitted is journaled and sent.
func acked(s *session, e *rpcError) (any, *rpcError) {
	if e == nil {
		e = flushed(s)
	}
	if e != nil {
		return nil, e
	}
	return struct{}{}, nil
}

// flushed waits until what a request emitted is journaled and sent, so that
// its answer never gets ahead of the journal.
func flushed(s *session) *rpcError {
	if err := s.flush(); err != nil {
		return errJournalUnavailable(err)
	}
	return nil
}

func limitParam(l *int) (int, *rpcError) {
	if l == nil {
		return DefaultPageLimit, nil
	}
	if *l < 1 {
		return 0, errInvalidParams("invalid params: limit must be at least 1")
	}
	return min(*l, MaxPageLimit), nil
}

// subscribe answers session/subscribe itself (see session.subscribe).
func (c *conn) subscribe(req *incoming) (any, *rpcError) {
	var p struct {
		sessionParams
		Cursor *string `json:"cursor"`
		Epoch  *string `json:"epoch"`
		Limit  *int    `json:"limit"`
	}
	s, e := c.decodeSession(req.params, &p, &p.sessionParams)
	if e != nil {
		return nil, e
	}
	limit, e := limitParam(p.Limit)
	if e != nil {
		return nil, e
	}
	if e := s.subscribe(c, req.id, p.Cursor, p.Epoch, limit); e != nil {
		return nil, e
	}
	return answeredAlready, nil
}

func (c *conn) unsubscribe(params json.RawMessage) (any, *rpcError) {
	var p sessionParams
	s, e := c.decodeSession(params, &p, &p)
	if e != nil {
		return nil, e
	}
	s.unsubscribe(c)
	c.removeSub(s)
	return struct{}{}, nil
}

func (c *conn) page(params json.RawMessage) (any, *rpcError) {
	var p struct {
		sessionParams
		Epoch     *string `json:"epoch"`
		Direction *string `json:"direction"`
		Cursor    *string `json:"cursor"`
		Limit     *int    `json:"limit"`
	}
	s, e := c.decodeSession(params, &p, &p.sessionParams)
	if e != nil {
		return nil, e
	}
	limit, e := limitParam(p.Limit)
	if e != nil {
		return nil, e
	}
	if p.Direction == nil || (*p.Direction != "after" && *p.Direction != "before") {
		return nil, errInvalidParams(`invalid params: direction must be "after" or "before"`)
	}
	if p.Epoch != nil && *p.Epoch != s.epoch {
		return nil, errStale(s.epoch, "stale cursor: the epoch is "+s.epoch)
	}
	var seq int64 = -1
	if p.Cursor != nil && *p.Cursor != "" {
		sid, n, ok := model.ParseCursor(*p.Cursor)
		if !ok || sid != s.id {
			return nil, errInvalidParams("invalid params: cursor is not a cursor of this session")
		}
		seq = n
	}
	if *p.Direction == "after" {
		return s.pageAfter(max(seq, 0), limit)
	}
	return s.pageBefore(seq, limit)
}

func (c *conn) submit(params json.RawMessage) (any, *rpcError) {
	var p struct {
		sessionParams
		CommandID *string `json:"commandId"`
		Text      *string `json:"text"`
	}
	s, e := c.decodeSession(params, &p, &p.sessionParams)
	if e != nil {
		return nil, e
	}
	if p.CommandID == nil || *p.CommandID == "" || len(*p.CommandID) > 256 {
		return nil, errInvalidParams("invalid params: commandId must be a non-empty string of at most 256 bytes")
	}
	if p.Text == nil {
		return nil, errInvalidParams("invalid params: text is required")
	}
	res, e := s.submit(*p.CommandID, *p.Text, false)
	if e != nil {
		return nil, e
	}
	return res, flushed(s)
}

func (c *conn) replay(params json.RawMessage) (any, *rpcError) {
	var p struct {
		sessionParams
		CommandID *string `json:"commandId"`
	}
	s, e := c.decodeSession(params, &p, &p.sessionParams)
	if e != nil {
		return nil, e
	}
	cid, e := required(p.CommandID, "commandId")
	if e != nil {
		return nil, e
	}
	return s.replay(cid), nil
}

func (c *conn) unqueue(params json.RawMessage) (any, *rpcError) {
	var p struct {
		sessionParams
		CommandID *string `json:"commandId"`
	}
	s, e := c.decodeSession(params, &p, &p.sessionParams)
	if e != nil {
		return nil, e
	}
	cid, e := required(p.CommandID, "commandId")
	if e != nil {
		return nil, e
	}
	return acked(s, s.unqueue(cid, "unqueued"))
}

func (c *conn) interrupt(params json.RawMessage) (any, *rpcError) {
	var p struct {
		sessionParams
		TurnID *string `json:"turnId"`
	}
	s, e := c.decodeSession(params, &p, &p.sessionParams)
	if e != nil {
		return nil, e
	}
	tid, e := required(p.TurnID, "turnId")
	if e != nil {
		return nil, e
	}
	return acked(s, s.interrupt(tid))
}

func (c *conn) respond(params json.RawMessage) (any, *rpcError) {
	var p struct {
		sessionParams
		ApprovalID *string `json:"approvalId"`
		Decision   *string `json:"decision"`
	}
	s, e := c.decodeSession(params, &p, &p.sessionParams)
	if e != nil {
		return nil, e
	}
	aid, e := required(p.ApprovalID, "approvalId")
	if e != nil {
		return nil, e
	}
	if p.Decision == nil || !isOfferableDecision(*p.Decision) {
		return nil, errInvalidParams(`invalid params: decision must be "approve", "deny" or "approveForSession"`)
	}
	return acked(s, s.respond(aid, *p.Decision))
}
