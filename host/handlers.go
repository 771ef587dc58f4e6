package host

import (
	"encoding/json"

	"github.com/lookout-sh/lookout/model"
)

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
	"session/delete":      paramsHandler((*conn).deleteSessionRequest),
	"session/subscribe":   (*conn).subscribe,
	"session/unsubscribe": paramsHandler((*conn).unsubscribe),
	"session/focus":       paramsHandler((*conn).focusSession),
	"sessions/watch":      paramsHandler((*conn).watchSessions),
	"sessions/unwatch":    paramsHandler((*conn).unwatchSessions),
	"view/page":           paramsHandler((*conn).page),
	"turn/submit":         forwardable(paramsHandler((*conn).submit)),
	"command/replay":      forwardable(paramsHandler((*conn).replay)),
	"turn/unqueue":        forwardable(paramsHandler((*conn).unqueue)),
	"turn/interrupt":      forwardable(paramsHandler((*conn).interrupt)),
	"approval/respond":    forwardable(paramsHandler((*conn).respond)),
	"question/respond":    forwardable(paramsHandler((*conn).answerQuestion)),
	"turn/steer":          forwardable(paramsHandler((*conn).steer)),
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
		c.invalidFrame(id, rerr)
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
		c.invalidFrame(req.id, &rpcError{Code: model.CodeMethodNotFound, Message: "method not found: " + req.method})
		return
	}
	if heavyMethods[req.method] && c.h != nil {
		// A page or a snapshot costs up to PageBytes to build and encode:
		// a few at a time, so a crowd of pipelining clients cannot pile
		// them up in memory, and none for a client that reads nothing.
		if closed, rerr := c.heavyRefusal(); closed || rerr != nil {
			if rerr != nil {
				c.reply(req.id, nil, rerr)
			}
			return
		}
		release := c.h.heavySlot()
		defer release()
	}
	result, rerr := handler(c, req)
	if rerr == nil && result == answeredAlready {
		return
	}
	c.reply(req.id, result, rerr)
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
