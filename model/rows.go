package model

import (
	"cmp"
	"slices"
)

// Row is one transcript row: an item or a pending entry.
type Row struct {
	Item    *Item
	Pending *PendingEntry
}

// Key identifies a row stably across Views.
func (r Row) Key() string {
	if r.Item != nil {
		return r.Item.ID
	}
	return "pending:" + r.Pending.CommandID
}

// Rows merges items and pending entries into display order (AppendRows).
func (v *View) Rows() []Row {
	return AppendRows(make([]Row, 0, len(v.Items)+len(v.Pending)), v.Items, slices.Clone(v.Pending))
}

// AppendRows appends to dst the rows of items (in transcript order) and
// pending entries in display order, the one rule every transcript shows:
// an entry renders after every item whose position is at most its anchor,
// entries at one anchor in submission order (Order). It sorts pending in
// place, and the pending rows point into it. Reusing dst and pending makes
// a rebuild allocation-free once they are large enough.
func AppendRows(dst []Row, items []*Item, pending []PendingEntry) []Row {
	slices.SortStableFunc(pending, func(a, b PendingEntry) int {
		if c := cmp.Compare(a.Anchor, b.Anchor); c != 0 {
			return c
		}
		return cmp.Compare(a.Order, b.Order)
	})
	j := 0
	for _, it := range items {
		for j < len(pending) && pending[j].Anchor < it.Position {
			dst = append(dst, Row{Pending: &pending[j]})
			j++
		}
		dst = append(dst, Row{Item: it})
	}
	for ; j < len(pending); j++ {
		dst = append(dst, Row{Pending: &pending[j]})
	}
	return dst
}
