package tui

import (
	"sort"

	"github.com/lookout-sh/lookout/model"
)

// rowRef names a transcript row across Views: an item by id, a pending
// entry by commandId, the header (the line above the first row), or the
// hole (hole.go). pos is the row's sort position (item position, or
// pending anchor) for a binary search; idx is the index it last had, a
// hint. A hole is named by its position alone: what the hole stood for is
// the first row from that position on, so when a page fills it the
// reference lands on the first item the page brought.
type rowRef struct {
	header  bool
	pending bool
	hole    bool
	id      string
	pos     int64
	idx     int
}

// rowSet is the transcript's rows, rebuilt from each new View into reused
// buffers (no per-View allocation once warm). Row order is the model's one
// rule (model.AppendRows), the order model.View.Rows gives. While a start
// window (sync.Picture.Start) is apart from the View, its items come
// first, then the hole (a zero model.Row standing for the items between),
// then the View's rows.
type rowSet struct {
	rows []model.Row
	pend []model.PendingEntry

	hole    int   // index of the hole row; -1: none
	holePos int64 // the hole's sort position: just past the window's newest item
}

// build refills the set from v in O(items + pending), with extra entries
// (the UI's failed prompts) placed like pending ones, and the start window
// start (nil: none) above a hole.
func (s *rowSet) build(v, start *model.View, extra []model.PendingEntry) {
	s.pend = append(append(s.pend[:0], v.Pending...), extra...)
	old := len(s.rows)
	need := len(v.Items) + len(s.pend)
	if start != nil {
		need += len(start.Items) + 1
	}
	if cap(s.rows) < need {
		s.rows = make([]model.Row, 0, need+need/4)
	}
	rows := s.rows[:0]
	s.hole, s.holePos = -1, 0
	if start != nil {
		rows = model.AppendRows(rows, start.Items, nil)
		s.hole, s.holePos = len(rows), 1
		if n := len(start.Items); n > 0 {
			s.holePos = start.Items[n-1].Position + 1
		}
		rows = append(rows, model.Row{})
	}
	rows = model.AppendRows(rows, v.Items, s.pend)
	if old > len(rows) && old <= cap(rows) {
		// Drop stale pointers beyond the new length so old items can be freed.
		clear(rows[len(rows):old])
	}
	s.rows = rows
}

// isHole reports whether row i is the hole.
func (s *rowSet) isHole(i int) bool { return i == s.hole && s.hole >= 0 }

// pos is row i's sort position: non-decreasing along the rows.
func (s *rowSet) pos(i int) int64 {
	r := s.rows[i]
	switch {
	case r.Item != nil:
		return r.Item.Position
	case r.Pending != nil:
		return r.Pending.Anchor
	}
	return s.holePos
}

// key identifies row i stably across Views, as model.Row.Key does.
func (s *rowSet) key(i int) string {
	if s.isHole(i) {
		return holeKey
	}
	return s.rows[i].Key()
}

// holeKey is the hole's row key (no item id or pending key looks so).
const holeKey = "\x00hole"

// refOf returns the reference of row i.
func (s *rowSet) refOf(i int) rowRef {
	r := s.rows[i]
	switch {
	case r.Item != nil:
		return rowRef{id: r.Item.ID, pos: r.Item.Position, idx: i}
	case r.Pending != nil:
		return rowRef{pending: true, id: r.Pending.CommandID, pos: r.Pending.Anchor, idx: i}
	}
	return rowRef{hole: true, pos: s.holePos, idx: i}
}

func (ref rowRef) matches(r model.Row) bool {
	switch {
	case ref.pending:
		return r.Pending != nil && r.Pending.CommandID == ref.id
	case ref.hole:
		return r.Item == nil && r.Pending == nil
	}
	return r.Item != nil && r.Item.ID == ref.id
}

// find returns the index of the row ref names, in O(log n): the hint
// first, then a binary search by position. A pending entry that joined is
// found as the userMessage carrying its commandId. ok is false when the
// row is gone.
func (s *rowSet) find(ref rowRef) (int, bool) {
	n := len(s.rows)
	if ref.idx >= 0 && ref.idx < n && ref.matches(s.rows[ref.idx]) && (!ref.hole || s.holePos == ref.pos) {
		return ref.idx, true
	}
	lo := sort.Search(n, func(i int) bool { return s.pos(i) >= ref.pos })
	if ref.hole {
		// The first row from the hole's position on: the hole itself, or
		// the first item a page brought into it.
		return lo, lo < n
	}
	for i := lo; i < n && s.pos(i) <= ref.pos; i++ {
		if ref.matches(s.rows[i]) {
			return i, true
		}
	}
	if ref.pending {
		// The entry joined: its userMessage sits at or after the anchor.
		for i := lo; i < n && i < lo+64; i++ {
			if it := s.rows[i].Item; it != nil && it.Kind == model.KindUserMessage && it.CommandID() == ref.id {
				return i, true
			}
		}
	}
	if !ref.pending && ref.id != "" {
		// An item whose position moved (rare): a bounded scan near the hint.
		for i := max(0, ref.idx-64); i < n && i < ref.idx+64; i++ {
			if ref.matches(s.rows[i]) {
				return i, true
			}
		}
	}
	return 0, false
}
