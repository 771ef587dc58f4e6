package host

import (
	"errors"
	"slices"
)

// errDeposed refuses what a session emits once this host stopped writing
// it: another fleet host writes it now.
var errDeposed = errors.New("this host no longer writes the session: another fleet host does")

// stepDown makes this host stop writing session sid at once: its journal
// refused an append (another host claimed the session), another host took
// its lease, or this host's liveness lapsed. Its running turn is
// cancelled and what it emits from then on is dropped unsent (nothing
// uncommitted was ever sent); the turn's terminals and its queued turns
// are the new writer's, from the journal, as after a host death
// (docs/protocol.md §8). The session is then served as a replica, and
// its subscribers are closed with 1012 so that they resume there: their
// cursors are in the journal, so they miss nothing.
func (h *Host) stepDown(sid string, why error) {
	h.replicaMu.Lock()
	defer h.replicaMu.Unlock()
	if f := h.fleet(); f != nil {
		f.dropLease(sid) // and fence its journal, whatever serves it here
	}
	s := h.session(sid)
	if s == nil || s.replica || s.isRetired() {
		return
	}
	resumers := s.depose()
	h.log.Warn("this host stopped writing a session; it serves it as a replica from now on", "session", sid, "why", why)
	closeResumers(resumers)
}

// fencedOut reports whether err is a fleet journal's refusal of an append
// because another host appended to the session.
func (s *session) fencedOut(err error) bool {
	return s.h.fleet() != nil && errors.Is(err, errJournalNotWriter)
}

// deposeFenced deposes s itself, the struct whose append was refused,
// for a caller holding fmu (and mu when muHeld): stepDown deposes the
// session the host's table holds, which after a takeover may be another
// struct, and this one would go on retrying its batch. Its subscribers
// resume elsewhere, as after stepDown.
func (s *session) deposeFenced(why error, muHeld bool) {
	if !muHeld {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	if s.deposed {
		return
	}
	resumers := s.deposeLocked()
	s.h.log.Warn("a journal append was refused: another host writes the session; this host stops writing it", "session", s.id, "why", why)
	go closeResumers(resumers)
}

// depose stops s as a writer: it emits and commits nothing more, its turn is
// cancelled and its queue dropped (the new writer runs it from the
// journal), and it is retired so that requests make a replica. It returns
// the connections subscribed to it.
func (s *session) depose() []*conn {
	// Holding fmu, no flush is in flight: once depose returns, nothing
	// this session emitted can reach the journal, even after this host
	// claims the session again (a flush still retrying would write stale
	// seqs after the new claim).
	s.fmu.Lock()
	defer s.fmu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.deposeLocked()
}

// deposeLocked is depose for a caller holding fmu and mu.
func (s *session) deposeLocked() []*conn {
	s.deposed = true
	s.retired.Store(true)
	s.outbox = nil
	s.queue = nil
	if s.active != nil {
		s.active.cancel()
	}
	subs := make([]*conn, 0, len(s.subs))
	for c := range s.subs {
		subs = append(subs, c)
	}
	return subs
}

// replaceRetiredLocked puts s where the retired session of the same id
// was in h.order (session/list cursors keep their place), else at the
// end. The caller holds h.mu.
func (h *Host) replaceRetiredLocked(s *session) {
	i := slices.IndexFunc(h.order, func(o *session) bool { return o.id == s.id && o != s })
	if i >= 0 {
		h.order[i] = s
		return
	}
	h.order = append(h.order, s)
}
