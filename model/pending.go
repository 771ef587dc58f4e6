package model

import (
	"cmp"
	"slices"
)

// PendingStatus is the display state of an optimistic prompt.
type PendingStatus string

const (
	// PendingSending: submitted, no answer yet.
	PendingSending PendingStatus = "sending"
	// PendingRetrying: the host admitted nothing (backpressure, envelope
	// error, lost connection); being retried with the same commandId.
	PendingRetrying PendingStatus = "retrying"
	// PendingQueued: acked as queued behind the active turn.
	PendingQueued PendingStatus = "queued"
	// PendingStarted: acked as started; waiting for its userMessage.
	PendingStarted PendingStatus = "started"
)

// RetireReason says why a pending entry left the pending family.
type RetireReason string

const (
	RetiredJoined       RetireReason = "joined"       // its userMessage folded in
	RetiredRejected     RetireReason = "rejected"     // a durable rejection (replay or -32010)
	RetiredUnqueued     RetireReason = "unqueued"     // turn/unqueued: text back to the composer
	RetiredLaunchFailed RetireReason = "launchFailed" // failed turn/completed with no turn/started
	RetiredGaveUp       RetireReason = "gaveUp"       // the client stopped retrying: text back to the composer
)

// ReturnsText reports whether the entry's text goes back to the composer.
func (r RetireReason) ReturnsText() bool { return r == RetiredUnqueued || r == RetiredGaveUp }

// PendingEntry is one of this client's own in-flight submissions. It never
// appears on the wire. It renders after the item at Anchor (the position of
// the last item folded when it was submitted, 0 for an empty transcript),
// entries at one anchor in Order.
type PendingEntry struct {
	CommandID   string
	Text        string
	Anchor      int64
	Order       uint64
	Status      PendingStatus
	Acked       bool
	TurnID      string
	SubmittedMs int64
}

// Retirement records a pending entry that left the family.
type Retirement struct {
	CommandID string
	Text      string
	Reason    RetireReason
	ItemID    string // the joining userMessage, for RetiredJoined
	Detail    string // why, for RetiredRejected
}

// Submit adds a pending entry anchored after the last item folded now. A
// second Submit of a commandId already pending returns the existing entry.
func (s *State) Submit(commandID, text string, nowMs int64) PendingEntry {
	if p := s.findPending(commandID); p != nil {
		return *p
	}
	s.pendingOrder++
	p := &PendingEntry{CommandID: commandID, Text: text, Anchor: s.LastPosition(),
		Order: s.pendingOrder, Status: PendingSending, SubmittedMs: nowMs}
	s.pending = append(slices.Clone(s.pending), p)
	return *p
}

// Ack records the host's answer to turn/submit: status "queued" or
// "started" with the pre-minted turnId. An entry already retired is left
// retired (the canonical join won the race).
func (s *State) Ack(commandID, status, turnID string) {
	p := s.findPending(commandID)
	if p == nil {
		return
	}
	p.Acked, p.TurnID = true, turnID
	// A later status from the fold (started) wins over the ack's queued.
	if p.Status == PendingStarted {
		return
	}
	if status == "started" {
		p.Status = PendingStarted
	} else {
		p.Status = PendingQueued
	}
	if status == "started" {
		if t := s.turns[turnID]; t != nil && t.Status == StatusFailed && !t.Started {
			s.retirePending(commandID, RetiredLaunchFailed, "")
		}
	} else if t := s.turns[turnID]; t != nil && t.Status != "" {
		switch {
		case t.Status == "unqueued":
			s.retirePending(commandID, RetiredUnqueued, "")
		case t.Status == StatusFailed && !t.Started:
			s.retirePending(commandID, RetiredLaunchFailed, "")
		}
	}
}

// SetPendingStatus changes an entry's display status (sending, retrying).
func (s *State) SetPendingStatus(commandID string, st PendingStatus) {
	if p := s.findPending(commandID); p != nil {
		p.Status = st
	}
}

// Retire removes an entry for a reason the fold cannot see itself: a
// durable rejection, or the client giving up (its text goes back to the
// composer). It reports whether an entry was retired.
func (s *State) Retire(commandID string, reason RetireReason, detail string) bool {
	p := s.findPending(commandID)
	if p == nil {
		return false
	}
	s.retirePending(commandID, reason, "")
	s.retired[len(s.retired)-1].Detail = detail
	return true
}

// PendingEntry returns a copy of the entry for commandID.
func (s *State) PendingEntry(commandID string) (PendingEntry, bool) {
	if p := s.findPending(commandID); p != nil {
		return *p, true
	}
	return PendingEntry{}, false
}

// Pending returns copies of the pending entries in submission order.
func (s *State) Pending() []PendingEntry {
	out := make([]PendingEntry, len(s.pending))
	for i, p := range s.pending {
		out[i] = *p
	}
	return out
}

// TakeRetirements returns and clears the retirements since the last call.
func (s *State) TakeRetirements() []Retirement {
	r := s.retired
	s.retired = nil
	return r
}

func (s *State) findPending(commandID string) *PendingEntry {
	if commandID == "" {
		return nil
	}
	for _, p := range s.pending {
		if p.CommandID == commandID {
			return p
		}
	}
	return nil
}

func (s *State) retirePending(commandID string, reason RetireReason, itemID string) {
	i := slices.IndexFunc(s.pending, func(p *PendingEntry) bool { return p.CommandID == commandID })
	if i < 0 {
		return
	}
	p := s.pending[i]
	s.pending = slices.Delete(slices.Clone(s.pending), i, i+1)
	s.retired = append(s.retired, Retirement{CommandID: commandID, Text: p.Text, Reason: reason, ItemID: itemID})
}

// reanchorPending applies the snapshot rules to the pending family after a
// snapshot replaced the server state: entries whose userMessage is in the
// snapshot retire; the others re-anchor after the snapshot's last item,
// queued ones first in queuedTurns order, then the rest in submission
// order. It returns the acked entries the snapshot no longer lists, which
// the caller resolves by command/replay.
func (s *State) reanchorPending() (needReplay []string) {
	for _, p := range slices.Clone(s.pending) {
		for _, it := range s.order {
			if it.Kind == KindUserMessage && it.CommandID() == p.CommandID {
				s.retirePending(p.CommandID, RetiredJoined, it.ID)
				break
			}
		}
	}
	queueIdx := func(cid string) int {
		return slices.IndexFunc(s.queued, func(q QueuedTurn) bool { return q.CommandID == cid })
	}
	kept := slices.Clone(s.pending)
	slices.SortStableFunc(kept, func(a, b *PendingEntry) int {
		ia, ib := queueIdx(a.CommandID), queueIdx(b.CommandID)
		switch {
		case ia >= 0 && ib >= 0:
			return cmp.Compare(ia, ib)
		case ia >= 0:
			return -1 // queued entries first
		case ib >= 0:
			return 1
		}
		return cmp.Compare(a.Order, b.Order)
	})
	anchor := s.LastPosition()
	for _, p := range kept {
		c := *p
		s.pendingOrder++
		c.Anchor, c.Order = anchor, s.pendingOrder
		if qi := queueIdx(c.CommandID); qi >= 0 {
			c.Acked, c.TurnID, c.Status = true, s.queued[qi].TurnID, PendingQueued
		} else if s.active != nil && s.active.CommandID == c.CommandID {
			c.Acked, c.TurnID, c.Status = true, s.active.TurnID, PendingStarted
		} else if c.Acked {
			needReplay = append(needReplay, c.CommandID)
		}
		*p = c
	}
	s.pending = kept
	return needReplay
}
