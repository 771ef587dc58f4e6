package host

import (
	"encoding/json"

	"github.com/lookout-sh/lookout/model"
)

// Session is an agent's handle on one session that stays valid between
// turns, for what an agent learns outside a turn (a title its program names
// after the turn ended, usage reported late). Its zero value is unusable;
// get one from Turn.Session.
type Session struct{ s *session }

// Session returns the handle of the session the turn runs in.
func (t *Turn) Session() Session { return Session{s: t.s} }

// ID is the session's id.
func (s Session) ID() string { return s.s.id }

// Value returns the session's latest session/state value by name (raw
// JSON), or nil.
func (s Session) Value(name string) json.RawMessage {
	s.s.mu.Lock()
	defer s.s.mu.Unlock()
	return s.s.state.Value(name)
}

// SetState emits session/state with the given values at any time, turn or
// not. Reserved params (sessionId, cursors) are ignored. It fails once the
// host is shutting down.
func (s Session) SetState(values map[string]any) error {
	if s.s.h.isClosing() {
		return errHostClosing
	}
	s.s.mu.Lock()
	defer s.s.mu.Unlock()
	return s.s.setStateLocked(values)
}

func (s *session) setStateLocked(values map[string]any) error {
	clean := make(map[string]any, len(values))
	for k, v := range values {
		if k != "sessionId" && k != "viewCursor" && k != "prevCursor" {
			clean[k] = v
		}
	}
	if t, ok := clean["title"].(string); ok {
		clean["title"] = cutUTF8(t, TitleBound)
	}
	_, err := s.emitLocked(model.MethodSessionState, clean)
	return err
}
