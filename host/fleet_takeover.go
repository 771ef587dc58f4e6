package host

import "slices"

// startFleet lets a fleet host take over, while it runs, the sessions of
// hosts that die, and answers the requests other hosts forward to it
// (docs/fleet.md).
func (h *Host) startFleet() {
	f := h.fleet()
	if f == nil {
		return
	}
	if err := f.start(h.adoptSession, h.stepDown); err != nil {
		h.log.Error("could not follow the fleet; sessions of hosts that die are not taken over", "err", err)
	}
	f.done.Add(2)
	go h.publishDirectory(f)
	go h.evictReplicas(f)
	if _, err := f.m.Serve(h.answerForwarded); err != nil { // it ends when the member leaves the fleet
		h.log.Error("could not answer requests forwarded by the fleet", "err", err)
	}
}

// adoptSession restores a session this host took the writer lease of
// while running: recovery appends the terminals its dead writer left
// missing, and its queued turns start here.
func (h *Host) adoptSession(rec sessionRecord) error {
	h.replicaMu.Lock() // no replica of it is made meanwhile
	defer h.replicaMu.Unlock()
	h.mu.Lock()
	old := h.sessions[rec.ID]
	closing := h.closing
	h.mu.Unlock()
	if (old != nil && !old.replica && !old.isRetired()) || closing {
		return nil // this host writes it already
	}
	var resumers []*conn
	if old != nil {
		resumers = old.retire()
	}
	// The replica's subscribers are told to resume only once the session
	// they resume on is in place; until then a request that finds the
	// retired replica waits here, on replicaMu (loadedSession).
	defer closeResumers(resumers)
	if h.opts.takeoverGate != nil {
		h.opts.takeoverGate(rec.ID)
	}
	s, err := h.restoreSession(rec, nil)
	if err != nil {
		h.log.Error("could not take over a session", "session", rec.ID, "err", err)
		if old != nil { // the next request makes a new replica
			h.mu.Lock()
			delete(h.sessions, rec.ID)
			h.order = slices.DeleteFunc(h.order, func(x *session) bool { return x == old })
			h.mu.Unlock()
		}
		return err
	}
	h.mu.Lock()
	h.sessions[s.id] = s
	if i := slices.Index(h.order, old); old != nil && i >= 0 {
		h.order[i] = s // session/list cursors keep their place
	} else {
		h.order = append(h.order, s)
	}
	h.mu.Unlock()
	s.mu.Lock()
	s.startNextLocked()
	s.mu.Unlock()
	h.log.Info("took over a session whose fleet host died", "session", s.id)
	return nil
}
