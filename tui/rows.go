package tui

import (
	"sort"

	"github.com/lookout-sh/lookout/model"
)

// rowRef names a transcript row across Views: an item by id, a pending
// entry by commandId, or the header (the line above the first row). pos is
// the row's sort position (item position, or pending anchor) for a binary
// search; idx is the index it last had, a hint.
type rowRef struct {
	header  bool
	pending bool
	id      string
	pos     int64
	idx     int
}

// rowSet is the transcript's rows, rebuilt from each new View into reused
// buffers (no per-View allocation once warm). Row order is the model's one
// rule (model.AppendRows), the order model.View.Rows gives.
type rowSet struct {
	rows []model.Row
	pend []model.PendingEntry
}

// build refills the set from v in O(items + pending), with extra entries
// (the UI's failed prompts) placed like pending ones.
func (s *rowSet) build(v *model.View, extra []model.PendingEntry) {
	s.pend = append(append(s.pend[:0], v.Pending...), extra...)
	old := len(s.rows)
	need := len(v.Items) + len(s.pend)
	if cap(s.rows) < need {
		s.rows = make([]model.Row, 0, need+need/4)
	}
	rows := model.AppendRows(s.rows[:0], v.Items, s.pend)
	if old > len(rows) && old <= cap(rows) {
		// Drop stale pointers beyond the new length so old items can be freed.
		clear(rows[len(rows):old])
	}
	s.rows = rows
}

// rowPos is a row's sort position: non-decreasing along the rows.
func rowPos(r model.Row) int64 {
	if r.Item != nil {
		return r.Item.Position
	}
	return r.Pending.Anchor
}

// refOf returns the reference of row i.
func (s *rowSet) refOf(i int) rowRef {
	r := s.rows[i]
	if r.Item != nil {
		return rowRef{id: r.Item.ID, pos: r.Item.Position, idx: i}
	}
	return rowRef{pending: true, id: r.Pending.CommandID, pos: r.Pending.Anchor, idx: i}
}

func (ref rowRef) matches(r model.Row) bool {
	if ref.pending {
		return r.Pending != nil && r.Pending.CommandID == ref.id
	}
	return r.Item != nil && r.Item.ID == ref.id
}

// find returns the index of the row ref names, in O(log n): the hint
// first, then a binary search by position. A pending entry that joined is
// found as the userMessage carrying its commandId. ok is false when the
// row is gone.
func (s *rowSet) find(ref rowRef) (int, bool) {
	n := len(s.rows)
	if ref.idx >= 0 && ref.idx < n && ref.matches(s.rows[ref.idx]) {
		return ref.idx, true
	}
	lo := sort.Search(n, func(i int) bool { return rowPos(s.rows[i]) >= ref.pos })
	for i := lo; i < n && rowPos(s.rows[i]) <= ref.pos; i++ {
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
