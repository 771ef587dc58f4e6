package model

import (
	"encoding/json"
	"errors"
	"slices"
)

// ActiveTurn is the session's running turn.
type ActiveTurn struct {
	TurnID    string `json:"turnId"`
	CommandID string `json:"commandId"`
	StartedAt string `json:"startedAt"`
}

// QueuedTurn is an admitted submission waiting for the active turn to end.
type QueuedTurn struct {
	TurnID    string `json:"turnId"`
	CommandID string `json:"commandId"`
	Text      string `json:"text"`
	// AgentCommand names the agent command the turn runs instead of a
	// prompt ("/compact": "compact"); "" for a prompt.
	AgentCommand string `json:"agentCommand,omitempty"`
}

// Approval is a pending approval request; Params are the params of its
// approval/requested notification, verbatim.
type Approval struct {
	ApprovalID string
	TurnID     string
	ItemID     string
	Summary    string
	Options    []string
	Params     json.RawMessage
}

// TurnRecord is what the fold remembers of a turn beyond the snapshot
// shape: whether it started and how it ended. It is not part of the
// canonical encoding.
type TurnRecord struct {
	TurnID    string
	Started   bool
	StartedAt string
	Status    string // "" while not completed
	Error     *TurnError
}

func (s *State) turn(id string) *TurnRecord {
	t := s.turns[id]
	if t == nil {
		t = &TurnRecord{TurnID: id}
		s.turns[id] = t
	}
	return t
}

func (s *State) turnQueued(ev *Event) {
	if !slices.ContainsFunc(s.queued, func(q QueuedTurn) bool { return q.TurnID == ev.TurnID }) {
		s.queued = append(slices.Clone(s.queued), QueuedTurn{TurnID: ev.TurnID, CommandID: ev.CommandID, Text: ev.Text, AgentCommand: ev.AgentCommand})
	}
	if p := s.findPending(ev.CommandID); p != nil {
		p.Acked, p.TurnID, p.Status = true, ev.TurnID, PendingQueued
	}
}

func (s *State) dequeue(turnID, commandID string) (QueuedTurn, bool) {
	i := slices.IndexFunc(s.queued, func(q QueuedTurn) bool {
		return (turnID != "" && q.TurnID == turnID) || (turnID == "" && commandID != "" && q.CommandID == commandID)
	})
	if i < 0 {
		return QueuedTurn{}, false
	}
	q := s.queued[i]
	s.queued = slices.Delete(slices.Clone(s.queued), i, i+1)
	return q, true
}

func (s *State) turnUnqueued(ev *Event) {
	q, _ := s.dequeue(ev.TurnID, ev.CommandID)
	cid := ev.CommandID
	if cid == "" {
		cid = q.CommandID
	}
	if ev.TurnID != "" {
		s.turn(ev.TurnID).Status = "unqueued"
	}
	if cid != "" {
		s.retirePending(cid, RetiredUnqueued, "")
	}
}

func (s *State) turnStarted(ev *Event) {
	q, _ := s.dequeue(ev.TurnID, "")
	cid := ev.CommandID
	if cid == "" {
		cid = q.CommandID
	}
	s.active = &ActiveTurn{TurnID: ev.TurnID, CommandID: cid, StartedAt: ev.StartedAt}
	t := s.turn(ev.TurnID)
	t.Started, t.StartedAt = true, ev.StartedAt
	if p := s.findPending(cid); p != nil {
		p.Acked, p.TurnID, p.Status = true, ev.TurnID, PendingStarted
	}
}

func (s *State) turnCompleted(ev *Event) {
	if s.active != nil && s.active.TurnID == ev.TurnID {
		s.active = nil
	}
	s.dequeue(ev.TurnID, "")
	t := s.turn(ev.TurnID)
	t.Status, t.Error = ev.Status, ev.TurnError
	rec := *t
	s.lastTurn = &rec
	if ev.Status == StatusFailed && !t.Started {
		for _, p := range slices.Clone(s.pending) {
			if p.Acked && p.TurnID == ev.TurnID {
				s.retirePending(p.CommandID, RetiredLaunchFailed, "")
			}
		}
	}
	if len(s.warnings) > 0 {
		s.warnings = slices.DeleteFunc(slices.Clone(s.warnings), func(w Warning) bool { return w.TurnID == ev.TurnID })
	}
}

func (s *State) approvalRequested(ev *Event) {
	if slices.ContainsFunc(s.approvals, func(a Approval) bool { return a.ApprovalID == ev.ApprovalID }) {
		return
	}
	a := Approval{ApprovalID: ev.ApprovalID, TurnID: ev.TurnID, ItemID: ev.ItemID, Params: ev.Params}
	fillApproval(&a)
	s.approvals = append(slices.Clone(s.approvals), a)
}

// fillApproval reads summary and options from the params.
func fillApproval(a *Approval) {
	var p struct {
		ApprovalID string            `json:"approvalId"`
		TurnID     string            `json:"turnId"`
		ItemID     string            `json:"itemId"`
		Summary    json.RawMessage   `json:"summary"`
		Options    []json.RawMessage `json:"options"`
	}
	// A member of the wrong type (options not an array) leaves that member
	// empty; encoding/json still fills the others.
	var typeErr *json.UnmarshalTypeError
	if err := json.Unmarshal(a.Params, &p); err != nil && !errors.As(err, &typeErr) {
		return
	}
	if a.ApprovalID == "" {
		a.ApprovalID = p.ApprovalID
	}
	if a.TurnID == "" {
		a.TurnID = p.TurnID
	}
	if a.ItemID == "" {
		a.ItemID = p.ItemID
	}
	if s, ok := valueString(p.Summary); ok {
		a.Summary = s
	} else if len(p.Summary) > 0 {
		a.Summary = string(p.Summary)
	}
	for _, o := range p.Options {
		if s, ok := valueString(o); ok {
			a.Options = append(a.Options, s)
			continue
		}
		var obj struct {
			ID    string `json:"id"`
			Label string `json:"label"`
		}
		if json.Unmarshal(o, &obj) == nil && (obj.ID != "" || obj.Label != "") {
			if obj.ID != "" {
				a.Options = append(a.Options, obj.ID)
			} else {
				a.Options = append(a.Options, obj.Label)
			}
		}
	}
}

// ActiveTurn returns the running turn, or nil.
func (s *State) ActiveTurn() *ActiveTurn { return s.active }

// QueuedTurns returns the queue in order. Do not modify.
func (s *State) QueuedTurns() []QueuedTurn { return s.queued }

// Approvals returns the approvals waiting for an answer, oldest first.
// Do not modify.
func (s *State) Approvals() []Approval { return s.approvals }

// LastTurn returns the last turn that completed, or nil.
func (s *State) LastTurn() *TurnRecord { return s.lastTurn }

// Turn returns what the fold knows of a turn, or nil.
func (s *State) Turn(id string) *TurnRecord { return s.turns[id] }

// Value returns a session state value by name (for example "title").
func (s *State) Value(name string) json.RawMessage { return s.values[name] }

// Idle reports whether the session has no active and no queued turn.
func (s *State) Idle() bool { return s.active == nil && len(s.queued) == 0 }
