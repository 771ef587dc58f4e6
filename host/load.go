package host

import (
	"fmt"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// load rebuilds the session from its journal, holding only what a loaded
// session holds (see fold.go): every event but the items' is folded; of
// an item event only its identity and position are read (scanItemMeta),
// into the index; and at the end the latest full objects of the newest
// and of the open items are read again and folded. With a persisted index
// (checkpoint.go) the item events up to its head are not read at all.
func (s *session) load() error {
	last, err := s.h.j.lastSeq(s.id)
	if err != nil {
		return err
	}
	if r, ok := s.h.j.(forkReporter); ok {
		if fork := r.forks(s.id); fork != "" {
			s.h.log.Error("the session's journal holds a second writer's commits; serving the first chain", "session", s.id, "fork", fork)
		}
	}
	var from int64
	if ix := s.persistedIndexFor(last); ix != nil {
		s.restoreIndexLocked(ix)
		err := scanRange(s.h.j, s.id, 0, ix.head, false, func(e journalEvent) error {
			ev, err := s.foldJournaled(e)
			if err == nil {
				s.noteTurnEndLocked(ev)
			}
			return err
		})
		if err != nil {
			return err
		}
		for _, st := range ix.settled {
			s.settleUserMessage(st[0], st[1])
		}
		from = ix.head
	}
	err = scanRange(s.h.j, s.id, from, last, true, func(e journalEvent) error {
		if isFullObject(e.Method) {
			return s.indexJournaledItem(e)
		}
		ev, err := s.foldJournaled(e)
		if err == nil {
			s.indexLocked(ev)
		}
		return err
	})
	if err != nil {
		return err
	}
	if t, err := time.Parse(time.RFC3339Nano, s.recordedAt); err == nil {
		s.updatedAt = t
	}
	if err := s.foldHeldItemsLocked(); err != nil {
		return err
	}
	// The item events moved the cursors too (every journaled event is
	// durable).
	s.state.Cursor = max(s.state.Cursor, last)
	s.state.DurableCursor = max(s.state.DurableCursor, last)
	s.seq = max(s.lease, last)
	s.sentSeq, s.sentDurable = s.state.Cursor, s.state.DurableCursor
	rej, err := s.h.j.rejections(s.id)
	if err != nil {
		return err
	}
	var forgotten []string
	for _, r := range rej {
		forgotten = append(forgotten, s.rejected.add(r.CommandID, r.Reason)...)
	}
	// A journal written before rejections were bounded may hold more.
	return s.h.j.forget(s.id, forgotten)
}

// foldJournaled folds a journaled event other than an item's and tracks
// the command it concerns.
func (s *session) foldJournaled(e journalEvent) (*model.Event, error) {
	ev, err := model.DecodeNotification(e.Method, e.Params)
	if err != nil {
		return nil, fmt.Errorf("seq %d: %w", e.Seq, err)
	}
	if err := s.state.Apply(ev); err != nil {
		return nil, fmt.Errorf("seq %d: %w", e.Seq, err)
	}
	s.trackCommand(ev)
	return ev, nil
}

// indexJournaledItem indexes a journaled full-object event without
// folding it: an item is open until its item/completed.
func (s *session) indexJournaledItem(e journalEvent) error {
	m, err := scanItemMeta(e.Params)
	if err != nil {
		return fmt.Errorf("seq %d: %w", e.Seq, err)
	}
	s.durables = append(s.durables, e.Seq)
	pos := m.Position
	if pos <= 0 {
		pos = e.Seq // an item without a position is placed by its first event
	}
	_, seen := s.fullSeq[m.ID]
	_, wasOpen := s.open[m.ID]
	open := e.Method != model.MethodItemCompleted && (!seen || wasOpen)
	s.indexItemLocked(m.ID, pos, e.Seq, open)
	if m.Kind == model.KindUserMessage {
		s.settleUserMessage(m.CommandID, m.ID)
	}
	s.recordedAt = m.RecordedAt
	return nil
}

// settleUserMessage settles the command whose prompt became item itemID.
func (s *session) settleUserMessage(commandID, itemID string) {
	if cmd := s.commands[commandID]; cmd != nil {
		cmd.state, cmd.kind, cmd.itemID = "settled", "userMessage", itemID
	}
}

// trackCommand rebuilds the command table from journaled turn events
// (userMessage items settle theirs in indexJournaledItem).
func (s *session) trackCommand(ev *model.Event) {
	switch ev.Method {
	case model.MethodTurnQueued:
		if ev.CommandID != "" && s.commands[ev.CommandID] == nil {
			s.remember(&command{id: ev.CommandID, turnID: ev.TurnID, text: ev.Text, agent: ev.AgentCommand, first: "queued", state: "queued"})
		}
	case model.MethodTurnStarted:
		cmd := s.byTurn[ev.TurnID]
		if cmd == nil && ev.CommandID != "" {
			cmd = &command{id: ev.CommandID, turnID: ev.TurnID, first: "started"}
			s.remember(cmd)
		}
		if cmd != nil {
			cmd.state = "started"
		}
	case model.MethodTurnUnqueued:
		cmd := s.byTurn[ev.TurnID]
		if cmd == nil {
			cmd = s.commands[ev.CommandID]
		}
		if cmd != nil {
			cmd.state, cmd.kind = "settled", "unqueued"
		}
	case model.MethodTurnCompleted:
		if cmd := s.byTurn[ev.TurnID]; cmd != nil && cmd.state == "queued" {
			cmd.state, cmd.kind = "settled", "launchFailed"
		}
	case model.MethodApprovalResolved:
		s.resolved[ev.ApprovalID] = model.Decision(ev.Decision)
	}
}
