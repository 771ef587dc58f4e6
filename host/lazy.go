package host

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// cleanShutdownKey is the journal meta entry a host writes as the last
// thing of a graceful Close: a shutdownSummary of every quiet session. The
// next start reads it and removes it at once, so an abnormal death after
// that start leaves no summary behind and the start after it folds every
// session (recovery needs the folds).
const cleanShutdownKey = "cleanShutdown"

// shutdownSummary is what a graceful Close leaves for the next start: for
// each quiet session (nothing running, queued, open or waiting for an
// approval) what session/list shows of it. A start finds such a session
// unchanged when its last journaled seq is still Head, and then keeps only
// this summary until the session is first used (lazy loading), so that
// starting takes time in the number of sessions, not of events.
type shutdownSummary struct {
	Sessions map[string]sessionStub `json:"sessions"`
}

// sessionStub is session/list's view of a session not yet loaded.
type sessionStub struct {
	Title     string `json:"title"`
	UpdatedAt string `json:"updatedAt"`
	// Head is the seq of the session's last journaled event: what its
	// head is once loaded.
	Head int64 `json:"head"`
	// Needs is the session's "needs" when it went quiet ("failed" or "").
	Needs string `json:"needs,omitempty"`
}

// readShutdownSummary returns the summary a graceful Close left, and
// removes it from the journal. A missing or unreadable summary is nil:
// every session is then loaded at start.
func (h *Host) readShutdownSummary() (*shutdownSummary, error) {
	raw, err := h.meta(cleanShutdownKey)
	if err != nil || raw == "" {
		return nil, err
	}
	if err := h.setMeta(cleanShutdownKey, ""); err != nil {
		return nil, err
	}
	var sum shutdownSummary
	if err := json.Unmarshal([]byte(raw), &sum); err != nil {
		h.log.Warn("ignoring an unreadable clean-shutdown summary; loading every session", "err", err)
		return nil, nil
	}
	return &sum, nil
}

// quietKey is the journal meta entry holding a session's stub from the
// last time it went quiet (see recordQuiet).
func quietKey(id string) string { return "quiet:" + id }

// recordQuiet journals the session's stub when it has just gone quiet
// (its turn ended and nothing is queued), so that a start after an
// abnormal death, which finds no clean-shutdown summary, can still leave
// the session unloaded. The stub holds the journal's head at that moment:
// any later event makes it stale (stubFor compares it with the journal),
// and a death between the commit and this write only costs a load.
func (s *session) recordQuiet() {
	if err := s.flush(); err != nil {
		return
	}
	st, ok := s.quietStub()
	if !ok {
		return
	}
	b, err := json.Marshal(st)
	if err == nil {
		err = s.h.setMeta(quietKey(s.id), string(b))
	}
	if err != nil {
		s.h.log.Warn("could not record a quiet session", "session", s.id, "err", err)
	}
}

// quietStubFor reads the stub recordQuiet left for a session; ok is false
// when there is none or it is unreadable.
func (h *Host) quietStubFor(id string) (sessionStub, bool) {
	raw, err := h.meta(quietKey(id))
	if err != nil || raw == "" {
		return sessionStub{}, false
	}
	var st sessionStub
	if json.Unmarshal([]byte(raw), &st) != nil {
		return sessionStub{}, false
	}
	return st, true
}

// stubFor decides whether a session can start unloaded: the summary names
// it and its journal has not moved since (lastSeq is its last journaled
// seq now). A host of another version may have appended after the summary
// was written, or died doing so; then the session is loaded (and
// recovered) at start.
func stubFor(sum *shutdownSummary, id string, lastSeq int64) (sessionStub, bool) {
	if sum == nil {
		return sessionStub{}, false
	}
	st, ok := sum.Sessions[id]
	if !ok || st.Head != lastSeq {
		return sessionStub{}, false
	}
	return st, true
}

// writeShutdownSummary records every quiet session's summary, as the last
// write of a graceful Close.
func (h *Host) writeShutdownSummary() error {
	sum := shutdownSummary{Sessions: map[string]sessionStub{}}
	for _, s := range h.sessionList() {
		if s.replica {
			continue // another host's session: this host does not load it at start
		}
		if st, ok := s.quietStub(); ok {
			sum.Sessions[s.id] = st
		}
	}
	b, err := json.Marshal(sum)
	if err != nil {
		return err
	}
	return h.setMeta(cleanShutdownKey, string(b))
}

// quietStub returns the session's stub when nothing in it is running,
// queued, open or waiting.
func (s *session) quietStub() (sessionStub, bool) {
	if !s.loaded.Load() {
		return *s.stub.Load(), true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active != nil || len(s.queue) > 0 || len(s.open) > 0 || len(s.approvals) > 0 || len(s.outbox) > 0 ||
		s.state.ActiveTurn() != nil || len(s.state.QueuedTurns()) > 0 || s.sentDurable != s.state.DurableCursor {
		return sessionStub{}, false
	}
	sm := s.summaryLocked()
	needs, _ := sm["needs"].(string)
	return sessionStub{Title: sm["title"].(string), UpdatedAt: sm["updatedAt"].(string), Head: s.state.DurableCursor, Needs: needs}, true
}

// ensureLoaded folds a session that started unloaded (on its first use).
// A session whose journal cannot be folded stays unusable until the next
// start: its error is returned again.
func (s *session) ensureLoaded() error {
	if s.loaded.Load() {
		return nil
	}
	s.lmu.Lock()
	defer s.lmu.Unlock()
	if s.loaded.Load() {
		return nil
	}
	if s.loadErr != nil {
		return s.loadErr
	}
	t0 := time.Now()
	s.fmu.Lock()
	s.mu.Lock()
	err := s.load()
	s.mu.Unlock()
	s.fmu.Unlock()
	if err != nil {
		s.loadErr = fmt.Errorf("journal: session %s: %w", s.id, err)
		s.h.log.Error("loading a session failed", "session", s.id, "err", err)
		return s.loadErr
	}
	s.loaded.Store(true)
	s.h.log.Debug("loaded a session on first use", "session", s.id, "events", len(s.durables), "took", time.Since(t0))
	return nil
}

// stubSummary is the session/list entry of a session not yet loaded.
func (s *session) stubSummary() map[string]any {
	st := s.stub.Load()
	e := map[string]any{"sessionId": s.id, "title": cutUTF8(st.Title, TitleBound), "status": "idle", "updatedAt": st.UpdatedAt,
		"epoch": s.epoch, "head": model.FormatCursor(s.id, st.Head), "queuedTurns": 0, "pendingApprovals": 0}
	if st.Needs != "" {
		e["needs"] = st.Needs
	}
	if f := s.h.fleet(); f != nil {
		e["host"] = f.m.HostID()
	}
	return e
}
