package host

import (
	"sort"

	"github.com/lookout-sh/lookout/model"
)

// turnEnd is how a turn ended (its turn/completed).
type turnEnd struct {
	status string
	err    *model.TurnError
}

// isFullObject reports whether method carries a whole item.
func isFullObject(method string) bool {
	return method == model.MethodItemStarted || method == model.MethodItemUpdated || method == model.MethodItemCompleted
}

// indexLocked maintains the lookup indexes after ev was folded.
func (s *session) indexLocked(ev *model.Event) {
	if ev.Durable {
		s.durables = append(s.durables, ev.Seq)
	}
	switch {
	case isFullObject(ev.Method):
		pos, open := ev.Seq, false
		if it := s.state.Item(ev.Item.ID); it != nil {
			pos, open = it.Position, it.IsOpen()
		}
		s.indexItemLocked(ev.Item.ID, pos, ev.Seq, open)
		s.recordedAt = ev.Item.String("recordedAt")
	case ev.Method == model.MethodItemDelta:
		s.lastDelta[ev.ItemID] = ev.Seq
	default:
		s.noteTurnEndLocked(ev)
	}
}

// noteTurnEndLocked records how a turn ended.
func (s *session) noteTurnEndLocked(ev *model.Event) {
	if ev.Method == model.MethodTurnCompleted {
		s.turnEnds[ev.TurnID] = turnEnd{status: ev.Status, err: ev.TurnError}
	}
}

// indexItemLocked records a full-object event of item id at seq: the
// item's position (kept from its first event) and whether it is open.
func (s *session) indexItemLocked(id string, pos, seq int64, open bool) {
	if _, seen := s.fullSeq[id]; !seen {
		s.insertPosition(posEntry{pos: pos, id: id})
	}
	s.fullSeq[id] = seq
	if open {
		s.open[id] = struct{}{}
	} else {
		delete(s.open, id)
		delete(s.lastDelta, id)
	}
}

func (s *session) insertPosition(e posEntry) {
	n := len(s.positions)
	if n == 0 || s.positions[n-1].pos < e.pos || (s.positions[n-1].pos == e.pos && s.positions[n-1].id < e.id) {
		s.positions = append(s.positions, e)
		return
	}
	i := sort.Search(n, func(i int) bool {
		p := s.positions[i]
		return p.pos > e.pos || (p.pos == e.pos && p.id > e.id)
	})
	s.positions = append(s.positions, posEntry{})
	copy(s.positions[i+1:], s.positions[i:])
	s.positions[i] = e
}
