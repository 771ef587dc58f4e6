package host

// startFleet lets a fleet host take over, while it runs, the sessions of
// hosts that die (docs/fleet.md).
func (h *Host) startFleet() {
	if f, ok := h.j.(*fleetJournal); ok {
		f.setAdopt(h.adoptSession)
	}
}

// adoptSession restores a session this host took the writer lease of
// while running: recovery appends the terminals its dead writer left
// missing, and its queued turns start here.
func (h *Host) adoptSession(rec sessionRecord) error {
	h.mu.Lock()
	_, known := h.sessions[rec.ID]
	closing := h.closing
	h.mu.Unlock()
	if known || closing {
		return nil
	}
	s, err := h.restoreSession(rec, nil)
	if err != nil {
		h.log.Error("could not take over a session", "session", rec.ID, "err", err)
		return err
	}
	h.mu.Lock()
	h.sessions[s.id] = s
	h.order = append(h.order, s)
	h.mu.Unlock()
	s.mu.Lock()
	s.startNextLocked()
	s.mu.Unlock()
	h.log.Info("took over a session whose fleet host died", "session", s.id)
	return nil
}
