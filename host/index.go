package host

import (
	"sort"

	"github.com/lookout-sh/lookout/model"
)

// indexLocked maintains the lookup indexes after ev was folded.
func (s *session) indexLocked(ev *model.Event) {
	if ev.Durable {
		s.durables = append(s.durables, ev.Seq)
	}
	switch ev.Method {
	case model.MethodItemStarted, model.MethodItemUpdated, model.MethodItemCompleted:
		id := ev.Item.ID
		if _, seen := s.fullSeq[id]; !seen {
			pos := ev.Seq
			if it := s.state.Item(id); it != nil {
				pos = it.Position
			}
			s.insertPosition(posEntry{pos: pos, id: id})
		}
		s.fullSeq[id] = ev.Seq
		if it := s.state.Item(id); it != nil && it.IsOpen() {
			s.open[id] = struct{}{}
		} else {
			delete(s.open, id)
			delete(s.lastDelta, id)
		}
	case model.MethodItemDelta:
		s.lastDelta[ev.ItemID] = ev.Seq
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
