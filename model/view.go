package model

import (
	"cmp"
	"encoding/json"
	"slices"
)

// View is an immutable picture of a State at one moment, safe to share
// between goroutines. Its Items are never mutated: the State clones an item
// before changing one it has published.
type View struct {
	SessionID     string
	Epoch         string
	Cursor        int64
	DurableCursor int64
	HasOlder      bool
	// Gen grows with every View a State publishes.
	Gen uint64

	Items       []*Item // transcript order
	Pending     []PendingEntry
	ActiveTurn  *ActiveTurn
	QueuedTurns []QueuedTurn
	Approvals   []Approval
	Values      map[string]json.RawMessage
	Warnings    []Warning
	LastTurn    *TurnRecord
}

// View publishes the current state. It costs O(pending + approvals + state
// values), not O(items): the item slice is shared, copy-on-write.
func (s *State) View() *View {
	s.init()
	s.gen++
	s.orderShared = true
	v := &View{
		SessionID: s.SessionID, Epoch: s.Epoch, Cursor: s.Cursor, DurableCursor: s.DurableCursor,
		HasOlder: s.HasOlder, Gen: s.gen,
		Items:       s.order[:len(s.order):len(s.order)],
		Pending:     s.Pending(),
		QueuedTurns: s.queued, // replaced, never mutated in place
		Approvals:   s.approvals,
		Warnings:    s.warnings,
		Values:      make(map[string]json.RawMessage, len(s.values)),
	}
	for k, val := range s.values {
		v.Values[k] = val
	}
	if s.active != nil {
		a := *s.active
		v.ActiveTurn = &a
	}
	if s.lastTurn != nil {
		t := *s.lastTurn
		v.LastTurn = &t
	}
	return v
}

// StringValue returns a session state value that is a JSON string.
func (v *View) StringValue(name string) string {
	s, _ := valueString(v.Values[name])
	return s
}

// Title is the session's title state value.
func (v *View) Title() string { return v.StringValue("title") }

// ItemByID finds an item by id (a scan from the newest end).
func (v *View) ItemByID(id string) *Item {
	for i := len(v.Items) - 1; i >= 0; i-- {
		if v.Items[i].ID == id {
			return v.Items[i]
		}
	}
	return nil
}

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

// Rows merges items and pending entries into display order: an entry
// renders after every item whose position is at most its anchor, entries
// at one anchor in submission order.
func (v *View) Rows() []Row {
	rows := make([]Row, 0, len(v.Items)+len(v.Pending))
	pend := slices.Clone(v.Pending)
	slices.SortStableFunc(pend, func(a, b PendingEntry) int {
		return cmp.Or(cmp.Compare(a.Anchor, b.Anchor), cmp.Compare(a.Order, b.Order))
	})
	j := 0
	for _, it := range v.Items {
		for j < len(pend) && pend[j].Anchor < it.Position {
			rows = append(rows, Row{Pending: &pend[j]})
			j++
		}
		rows = append(rows, Row{Item: it})
	}
	for ; j < len(pend); j++ {
		rows = append(rows, Row{Pending: &pend[j]})
	}
	return rows
}
