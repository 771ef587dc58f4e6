package host

import (
	"fmt"
	"slices"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// unqueue reclaims a queued command (turn/unqueue).
func (s *session) unqueue(cid, reason string) *rpcError {
	s.mu.Lock()
	defer s.mu.Unlock()
	cmd := s.commands[cid]
	if cmd == nil {
		return errInvalidParams("unknown commandId " + cid)
	}
	if cmd.kind == "unqueued" {
		return nil
	}
	if cmd.state != "queued" {
		return &rpcError{Code: model.CodeInvalidParams, Message: "the command is not queued: its turn has " + cmd.state,
			Data: map[string]string{"state": cmd.state}}
	}
	return s.unqueueLocked(cmd, reason)
}

func (s *session) unqueueLocked(cmd *command, reason string) *rpcError {
	if _, err := s.emitLocked(model.MethodTurnUnqueued, map[string]any{
		"turnId": cmd.turnID, "commandId": cmd.id, "reason": reason}); err != nil {
		return errJournalUnavailable(err)
	}
	s.queue = slices.DeleteFunc(s.queue, func(q *queuedTurn) bool { return q.cmd == cmd })
	cmd.state, cmd.kind = "settled", "unqueued"
	return nil
}

// interrupt stops a turn (turn/interrupt): the active one ends stopped, a
// queued one is unqueued.
func (s *session) interrupt(turnID string) *rpcError {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active != nil && s.active.id == turnID {
		s.active.interrupted = true
		s.active.cancel()
		return nil
	}
	cmd := s.byTurn[turnID]
	if cmd == nil {
		return errInvalidParams("unknown turnId " + turnID)
	}
	if cmd.state == "queued" {
		return s.unqueueLocked(cmd, "interrupted")
	}
	return nil // already over: nothing to stop
}

// respond answers an approval (approval/respond). The handler has checked
// the reason's length and that only a deny carries one.
func (s *session) respond(approvalID string, ans Answer) *rpcError {
	decision := ans.Decision
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.approvals[approvalID]
	if !ok {
		if _, done := s.resolved[approvalID]; done {
			return nil
		}
		return errInvalidParams("unknown approvalId " + approvalID)
	}
	if !slices.Contains(a.options, decision) {
		return errInvalidParams(fmt.Sprintf("invalid params: decision %q is not one this approval offers %q", decision, a.options))
	}
	if err := s.resolveApprovalLocked(approvalID, ans); err != nil {
		return errJournalUnavailable(err)
	}
	return nil
}

// replay answers command/replay. Once the command's turn has ended, a
// settled answer also carries the turn's outcome (turnStatus, and
// turnError when it has one), so a client that learnt of the end only
// through a snapshot, which keeps no turn outcomes, can still know it
// (protocol §7). The answer reflects committed events only: the outbox is
// flushed first, and an outcome is left out if it could not be.
func (s *session) replay(cid string) map[string]any {
	s.fmu.Lock()
	defer s.fmu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	committed := s.flushLocked() == nil
	if reason, ok := s.rejected.get(cid); ok {
		return map[string]any{"state": "settled", "turnId": nil,
			"settlement": map[string]any{"kind": "rejected", "reason": reason}}
	}
	cmd := s.commands[cid]
	if cmd == nil {
		return map[string]any{"state": "unknown", "turnId": nil, "settlement": nil}
	}
	out := map[string]any{"state": cmd.state, "turnId": cmd.turnID, "settlement": nil}
	if cmd.state == "settled" {
		st := map[string]any{"kind": cmd.kind}
		if cmd.kind == "userMessage" {
			st["itemId"] = cmd.itemID
		}
		out["settlement"] = st
		if t, ended := s.turnEnds[cmd.turnID]; committed && ended && model.IsTerminalStatus(t.status) {
			out["turnStatus"] = t.status
			if t.err != nil {
				out["turnError"] = t.err
			}
		}
	}
	return out
}

// waitIdle blocks until the session has no active and no queued turn, or
// the timeout passes. Used for scripted history.
func (s *session) waitIdle(timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		s.mu.Lock()
		run := s.active
		idle := run == nil && len(s.queue) == 0
		s.mu.Unlock()
		if idle {
			return true
		}
		if run == nil {
			return false
		}
		select {
		case <-run.done:
		case <-time.After(time.Until(deadline)):
			return false
		}
	}
}
