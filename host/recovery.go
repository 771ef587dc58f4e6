package host

import (
	"fmt"
	"slices"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// loadSessions rebuilds every session from the journal: its fold, indexes
// and commands. A session left with open items or an active turn by an
// abnormal death gets its host-death terminals appended now, before anyone
// can subscribe. Queued turns stay queued; Start launches them. A session
// the last graceful shutdown left quiet and that has not changed since
// starts unloaded instead (see shutdownSummary) and is folded on first use;
// so does, after an abnormal death, a session that had gone quiet and has
// not changed since (see recordQuiet).
func (h *Host) loadSessions() error {
	recs, err := h.j.sessions()
	if err == nil && h.fl != nil {
		recs, err = h.fl.mine(recs)
	}
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	sum, err := h.readShutdownSummary()
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	for _, rec := range recs {
		s, err := h.restoreSession(rec, sum)
		if err != nil {
			return err
		}
		h.sessions[s.id] = s
		h.order = append(h.order, s)
	}
	return nil
}

// restoreSession rebuilds one session from the journal: a stub when sum
// or its quiet stub still describes it, else folded, with the terminals an
// abnormal death left missing appended.
func (h *Host) restoreSession(rec sessionRecord, sum *shutdownSummary) (*session, error) {
	last, err := h.j.lastSeq(rec.ID)
	if err != nil {
		return nil, fmt.Errorf("journal: session %s: %w", rec.ID, err)
	}
	st, ok := stubFor(sum, rec.ID, last)
	if !ok {
		// No clean shutdown, or the session changed since: the stub its
		// last quiet moment left, if the journal has not moved since.
		if q, has := h.quietStubFor(rec.ID); has {
			st, ok = stubFor(&shutdownSummary{Sessions: map[string]sessionStub{rec.ID: q}}, rec.ID, last)
		}
	}
	if ok {
		return newStubSession(h, rec, st), nil
	}
	s := newSession(h, rec)
	if err := s.load(); err != nil {
		return nil, fmt.Errorf("journal: session %s: %w", rec.ID, err)
	}
	s.mu.Lock()
	err = s.restoreStreamedLocked()
	if err == nil {
		err = s.recoverLocked()
	}
	s.mu.Unlock()
	if err == nil {
		err = s.flush()
	}
	if err == nil {
		// Every item is terminal now: the recorded deltas are restated.
		err = h.j.dropStreams(s.id)
	}
	if err != nil {
		// What recovery emitted and could not commit must never be
		// committed later (a flush retrying it would write stale seqs
		// after the next claim of the session): this session is dropped.
		s.depose()
		return nil, fmt.Errorf("journal: session %s: recovery: %w", rec.ID, err)
	}
	return s, nil
}

// restoreStreamedLocked folds the deltas the journal recorded for items
// still open (those after each item's last full object), so that their
// host-death terminals restate the text clients saw streamed before the
// death instead of only what the last full object held.
func (s *session) restoreStreamedLocked() error {
	recs, err := s.h.j.streams(s.id)
	if err != nil {
		return err
	}
	for _, r := range recs {
		it := s.state.Item(r.ItemID)
		if it == nil || !it.IsOpen() || r.Seq <= s.fullSeq[r.ItemID] {
			continue
		}
		ev, err := model.DecodeNotification(model.MethodItemDelta, r.Params)
		if err != nil {
			s.h.log.Warn("skipping an unreadable recorded delta", "session", s.id, "seq", r.Seq, "err", err)
			continue
		}
		if err := s.state.AppendStreamed(ev.ItemID, ev.Field, ev.Delta); err != nil {
			s.h.log.Warn("skipping a recorded delta the fold refuses", "session", s.id, "seq", r.Seq, "err", err)
		}
	}
	return nil
}

// recoverLocked appends the terminals an abnormal death left missing:
// item/completed (failed, endedBy hostDeath) for every open item, approval
// resolutions ("cancelled") for pending approvals, and turn/completed
// (failed, error hostDeath) for the active turn. Queued turns are
// restored to the run queue.
func (s *session) recoverLocked() error {
	var open []*model.Item
	for _, it := range s.state.Items() {
		if it.IsOpen() {
			open = append(open, it)
		}
	}
	for _, it := range open {
		status := model.StatusFailed
		if it.Kind == model.KindQuestion {
			status = model.StatusCancelled // nobody can answer it any more
		}
		o, err := nextItemObject(it.AppendJSON(nil), status)
		if err != nil {
			return err
		}
		o.set("endedBy", "hostDeath")
		if _, err := s.emitLocked(model.MethodItemCompleted, map[string]any{"item": o.raw()}); err != nil {
			return err
		}
		if it.Kind == model.KindQuestion {
			s.questionEnds[it.ID] = questionEnd{status: status}
		}
	}
	v := s.state.View()
	for _, a := range v.Approvals {
		if _, err := s.emitLocked(model.MethodApprovalResolved, map[string]any{"approvalId": a.ApprovalID, "decision": model.DecisionCancelled}); err != nil {
			return err
		}
		s.resolved[a.ApprovalID] = model.DecisionCancelled
	}
	if at := s.state.ActiveTurn(); at != nil {
		if _, err := s.emitLocked(model.MethodTurnCompleted, map[string]any{"turnId": at.TurnID, "status": model.StatusFailed,
			"error": map[string]string{"code": turnErrHostDeath, "message": "the host stopped while this turn was running"}}); err != nil {
			return err
		}
		if cmd := s.byTurn[at.TurnID]; cmd != nil && cmd.state != "settled" {
			cmd.state = "settled"
			if cmd.kind == "" {
				cmd.kind = "launchFailed"
			}
		}
	}
	for _, q := range s.state.QueuedTurns() {
		cmd := s.byTurn[q.TurnID]
		if cmd == nil {
			cmd = &command{id: q.CommandID, turnID: q.TurnID, text: q.Text, agent: q.AgentCommand, first: "queued", state: "queued"}
			s.remember(cmd)
		}
		if cmd.text == "" {
			cmd.text = q.Text
		}
		if cmd.agent == "" {
			cmd.agent = q.AgentCommand
		}
		if !slices.ContainsFunc(s.queue, func(x *queuedTurn) bool { return x.cmd == cmd }) {
			s.queue = append(s.queue, &queuedTurn{cmd: cmd})
		}
	}
	return nil
}

// setupDemo creates the demo session on first start (when asked and the
// journal holds no session yet), or finds the one created earlier.
func (h *Host) setupDemo() error {
	id, err := h.meta("demoSession")
	if err != nil {
		return err
	}
	if id != "" && h.sessions[id] != nil {
		h.demoSID = id
		return nil
	}
	if !h.opts.DemoSession || len(h.order) > 0 {
		return nil
	}
	s, err := h.createSession("Lookout demo: every kind of item")
	if err != nil {
		return err
	}
	if err := h.setMeta("demoSession", s.id); err != nil {
		return err
	}
	h.demoSID = s.id
	for i, prompt := range demoHistoryPrompts {
		if _, rerr := s.submit(fmt.Sprintf("demo-history-%d", i+1), prompt, "", true); rerr != nil {
			return rerr
		}
		if !s.waitIdle(time.Minute) {
			return fmt.Errorf("demo history turn %d did not finish", i+1)
		}
	}
	return nil
}
