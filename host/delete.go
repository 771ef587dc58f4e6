package host

import (
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// SessionEnder is implemented by agents that hold something per session
// (a child process, a conversation): EndSession is called once a session
// is deleted, after its last turn ended, and must leave no process of
// that session behind. It is never called for a session with a turn
// running.
type SessionEnder interface {
	EndSession(sessionID string)
}

// ErrUnknownSession is DeleteSession's error for an id the host does not
// hold.
var ErrUnknownSession = errors.New("unknown session")

// ErrDeleteUnsupported is DeleteSession's error on a journal that cannot
// forget a session (JetStream, whose fleet hosts may hold it too).
var ErrDeleteUnsupported = errors.New("this host's journal cannot delete sessions")

// reasonDeleteUnsupported is data.reason of session/delete's -32010 on
// such a journal.
const reasonDeleteUnsupported = "deleteUnsupported"

// sessionDeleter is a journal that can forget a session: its record,
// events, deltas, rejections and the meta values kept for it.
type sessionDeleter interface {
	deleteSession(sid string) error
}

// sessionMetaKeys are the meta keys a host keeps for a session.
func sessionMetaKeys(sid string) []string { return []string{quietKey(sid), indexKey(sid)} }

// deleteTurnGrace bounds how long DeleteSession waits for a running turn
// to end once it was stopped.
const deleteTurnGrace = 10 * time.Second

// DeleteSession deletes a session and everything journaled of it. A
// running turn is stopped first (its terminals are never written: the
// session is going), queued turns are dropped, the agent's hold on the
// session ends (SessionEnder), and the connections subscribed to it are
// closed so that their clients learn, resubscribing, that it is gone
// (-32004). A durable host forgets it across restarts too.
func (h *Host) DeleteSession(id string) error { return h.deleteSession(id, nil) }

// deleteSession is DeleteSession; the connection asking (nil: none) stays
// open, to hear its answer.
func (h *Host) deleteSession(id string, asking *conn) error {
	jd, ok := h.j.(sessionDeleter)
	if !ok || h.fleet() != nil {
		return ErrDeleteUnsupported
	}
	h.mu.Lock()
	s := h.sessions[id]
	closing := h.closing
	h.mu.Unlock()
	switch {
	case closing:
		return errHostClosing
	case s == nil || s.replica || s.isRetired():
		return ErrUnknownSession
	}
	s.mu.Lock()
	run := s.active
	s.mu.Unlock()
	subs := s.depose() // emits nothing more, stops the turn, drops the queue
	if run != nil {
		select {
		case <-run.done:
		case <-time.After(deleteTurnGrace):
			h.log.Warn("a deleted session's turn did not end in time", "session", id, "turn", run.id)
		}
	}
	if e, ok := h.agent.(SessionEnder); ok {
		e.EndSession(id)
	}
	h.mu.Lock()
	delete(h.sessions, id)
	h.order = slices.DeleteFunc(h.order, func(o *session) bool { return o == s })
	if h.demoSID == id {
		h.demoSID = ""
	}
	h.mu.Unlock()
	err := jd.deleteSession(id)
	if asking != nil {
		asking.removeSub(s)
	}
	closeResumers(slices.DeleteFunc(subs, func(c *conn) bool { return c == asking }))
	if err != nil {
		return err
	}
	h.log.Info("deleted a session", "session", id)
	return nil
}

// deleteSessionRequest answers session/delete: {} once the session is
// gone.
func (c *conn) deleteSessionRequest(params json.RawMessage) (any, *rpcError) {
	var p sessionParams
	if e := decodeParams(params, &p); e != nil {
		return nil, e
	}
	sid, e := required(p.SessionID, "sessionId")
	if e != nil {
		return nil, e
	}
	err := c.h.deleteSession(sid, c)
	switch {
	case err == nil:
		return map[string]any{}, nil
	case errors.Is(err, ErrUnknownSession):
		return nil, errUnknownSession(sid)
	case errors.Is(err, ErrDeleteUnsupported):
		return nil, &rpcError{Code: model.CodeRejected, Message: "rejected: " + err.Error(), Data: map[string]string{"reason": reasonDeleteUnsupported}}
	}
	return nil, &rpcError{Code: model.CodeBackpressured, Message: "backpressured: " + err.Error()}
}
