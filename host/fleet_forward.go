package host

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/lookout-sh/lookout/fleet"
	"github.com/lookout-sh/lookout/model"
)

// The requests that make a session emit are answered by the host that
// writes it: a fleet host forwards them, for a replica, to the holder of
// the session's writer lease (fleet.Forward), which answers them as its
// own clients' (with the same commandId semantics: a repeated submit is
// admitted once).

// forwardedMethods are the requests forwarded to a session's writer.
var forwardedMethods = map[string]bool{
	"turn/submit": true, "command/replay": true, "turn/unqueue": true,
	"turn/interrupt": true, "approval/respond": true,
	"question/respond": true, "turn/steer": true,
}

// forwardTimeout bounds a forwarded request, its retries included.
const forwardTimeout = 30 * time.Second

// forwardable answers a request for a replica by forwarding it to the
// session's writer, and any other with next.
func forwardable(next requestHandler) requestHandler {
	return func(c *conn, req *incoming) (any, *rpcError) {
		var p sessionParams
		if c.h.fleet() == nil || json.Unmarshal(req.params, &p) != nil || p.SessionID == nil {
			return next(c, req)
		}
		s, err := c.h.loadedSession(*p.SessionID)
		if err != nil || s == nil || !s.replica {
			return next(c, req) // next answers the error
		}
		if c.forwarded {
			return nil, errWriterMoved()
		}
		return c.h.forward(s.id, req.method, req.params)
	}
}

func errWriterMoved() *rpcError {
	return &rpcError{Code: model.CodeBackpressured, Message: "backpressured: the session's writer is changing hosts; try again"}
}

// forward sends a request for session sid to the host holding its writer
// lease and returns that host's answer.
func (h *Host) forward(sid, method string, params json.RawMessage) (any, *rpcError) {
	f := h.fleet()
	ctx, cancel := context.WithTimeout(context.Background(), forwardTimeout)
	defer cancel()
	holder, err := f.m.Holder(ctx, sid)
	if err != nil {
		return nil, errJournalUnavailable(err)
	}
	if holder == "" || holder == f.m.HostID() {
		return nil, errWriterMoved() // its writer died and no host took it over yet
	}
	res, rerr, err := f.m.Forward(ctx, holder, method, params)
	if errors.Is(err, fleet.ErrNoHost) {
		return nil, errWriterMoved()
	}
	if err != nil {
		return nil, errJournalUnavailable(err)
	}
	if len(rerr) > 0 {
		e := &rpcError{}
		if err := json.Unmarshal(rerr, e); err != nil {
			return nil, &rpcError{Code: codeInternalError, Message: "internal error: the writer's answer: " + err.Error()}
		}
		return nil, e
	}
	return res, nil
}

// answerForwarded answers a request another fleet host forwarded, as this
// host answers its own clients.
func (h *Host) answerForwarded(_ context.Context, method string, params json.RawMessage) (result, rpcErr json.RawMessage) {
	var res any
	var e *rpcError
	func() {
		defer func() {
			if r := recover(); r != nil {
				h.log.Error("forwarded request panicked", "method", method, "panic", r)
				e = &rpcError{Code: codeInternalError, Message: "internal error"}
			}
		}()
		if !forwardedMethods[method] {
			e = &rpcError{Code: model.CodeMethodNotFound, Message: "method not forwarded: " + method}
			return
		}
		res, e = requestHandlers[method](&conn{h: h, forwarded: true}, &incoming{id: nullID, method: method, params: params})
	}()
	if e != nil {
		b, _ := json.Marshal(e) // an rpcError always marshals
		return nil, b
	}
	b, err := json.Marshal(res)
	if err != nil {
		b, _ = json.Marshal(&rpcError{Code: codeInternalError, Message: "internal error: " + err.Error()})
		return nil, b
	}
	return b, nil
}
