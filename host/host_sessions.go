package host

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/lookout-sh/lookout/model"
)

// session finds a session by id, nil if there is none. It may be
// unloaded: requests use loadedSession.
func (h *Host) session(id string) *session {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sessions[id]
}

// loadedSession finds a session by id and folds it if it started
// unloaded: nil and no error if there is no such session.
func (h *Host) loadedSession(id string) (*session, error) {
	if f := h.fleet(); f != nil {
		f.ensureLive() // a host just resumed from a pause serves nothing as writer first
	}
	s := h.session(id)
	if s == nil || s.isRetired() {
		// A fleet's session another host writes and this host serves no
		// replica of yet, or one this host is taking over: replicaSession
		// waits for the takeover to finish.
		return h.replicaSession(id)
	}
	s.touch()
	if err := s.ensureLoaded(); err != nil {
		return nil, err
	}
	return s, nil
}

// writtenLocked counts the sessions this host writes (its fleet's other
// sessions, served as replicas, do not count). The caller holds h.mu.
func (h *Host) writtenLocked() int {
	n := 0
	for _, s := range h.order {
		if !s.replica {
			n++
		}
	}
	return n
}

func (h *Host) sessionList() []*session {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]*session(nil), h.order...)
}

// CreateSession creates a session, titled when title is not empty, and
// returns its id.
func (h *Host) CreateSession(title string) (string, error) {
	s, err := h.createSession(title)
	if err != nil {
		return "", err
	}
	return s.id, nil
}

// ErrTooManySessions refuses a session beyond Options.MaxSessions.
var ErrTooManySessions = errors.New("the host holds as many sessions as it allows")

func (h *Host) createSession(title string) (*session, error) {
	h.mu.Lock()
	closing, full := h.closing, h.writtenLocked() >= h.opts.MaxSessions
	h.mu.Unlock()
	switch {
	case closing:
		return nil, errHostClosing
	case full:
		return nil, fmt.Errorf("%w (%d)", ErrTooManySessions, h.opts.MaxSessions)
	}
	if err := h.health.err(); err != nil {
		return nil, fmt.Errorf("%w (%w)", errJournalFailing, err)
	}
	title = cutUTF8(title, TitleBound)
	epoch := make([]byte, 8)
	rand.Read(epoch)
	rec := sessionRecord{ID: newID(), Epoch: hex.EncodeToString(epoch), CreatedAt: nowRFC3339()}
	if h.fl != nil {
		// The lease first: the store creates only what this host writes.
		if err := h.fl.take(rec.ID); err != nil {
			return nil, err
		}
	}
	if err := h.j.createSession(rec); err != nil {
		return nil, err
	}
	if h.fl != nil {
		if err := h.fl.created(rec); err != nil {
			return nil, err
		}
	}
	s := newSession(h, rec)
	values := map[string]any{}
	if title != "" {
		values["title"] = title
	}
	if name := agentName(h); name != "demo" && name != "custom" {
		values["agent"] = name // which agent's conversation this session holds
	}
	if o, ok := h.opts.AgentImpl.(CommandOfferer); ok && o.Commands() != nil {
		values[StateCommands] = o.Commands()
	}
	if len(values) > 0 {
		s.mu.Lock()
		_, err := s.emitLocked(model.MethodSessionState, values)
		s.mu.Unlock()
		if err == nil {
			err = s.flush()
		}
		if err != nil {
			return nil, err
		}
	}
	h.mu.Lock()
	h.sessions[s.id] = s
	h.order = append(h.order, s)
	h.mu.Unlock()
	return s, nil
}

// noteQueued records n bytes queued on one connection in the high-water
// mark that tests read.
func (h *Host) noteQueued(n int) {
	for {
		old := h.queuedPeak.Load()
		if int64(n) <= old || h.queuedPeak.CompareAndSwap(old, int64(n)) {
			return
		}
	}
}

// addConn registers c in the slot reserveConn took for it.
func (h *Host) addConn(c *conn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.upgrading--
	if h.closing {
		return false
	}
	h.conns[c] = struct{}{}
	return true
}

// reserveConn takes a connection slot (MaxConns) before the upgrade, or
// reports that none is free. The slot counts from the check on, so
// upgrades side by side never open more than MaxConns: the client's dial
// returns at the 101, before addConn. addConn or releaseConn gives it up.
func (h *Host) reserveConn() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.conns)+h.upgrading >= h.opts.MaxConns {
		return false
	}
	h.upgrading++
	return true
}

// releaseConn gives back a slot whose upgrade failed.
func (h *Host) releaseConn() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.upgrading--
}

func (h *Host) dropConn(c *conn) {
	h.mu.Lock()
	delete(h.conns, c)
	h.mu.Unlock()
	h.unwatch(c)
}
