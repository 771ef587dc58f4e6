package model

import (
	"fmt"
	"testing"
)

func TestAppendRowsOrder(t *testing.T) {
	items := func(positions ...int64) []*Item {
		var out []*Item
		for _, p := range positions {
			out = append(out, &Item{ID: fmt.Sprint("i", p), Position: p})
		}
		return out
	}
	entry := func(cid string, anchor int64, order uint64) PendingEntry {
		return PendingEntry{CommandID: cid, Anchor: anchor, Order: order}
	}
	for _, tc := range []struct {
		name    string
		items   []*Item
		pending []PendingEntry
		want    string
	}{
		{"nothing", nil, nil, "[]"},
		{"items only", items(1, 2), nil, "[i1 i2]"},
		{"pending only, by order", nil, []PendingEntry{entry("b", 0, 2), entry("a", 0, 1)}, "[pending:a pending:b]"},
		{"entry after the items at or before its anchor", items(1, 2, 3), []PendingEntry{entry("a", 2, 1)}, "[i1 i2 pending:a i3]"},
		{"entry anchored before every item", items(5, 6), []PendingEntry{entry("a", 0, 1)}, "[pending:a i5 i6]"},
		{"entry past the last item", items(1), []PendingEntry{entry("a", 9, 1)}, "[i1 pending:a]"},
		{"anchor before order", items(1, 2), []PendingEntry{entry("late", 1, 1), entry("early", 0, 2)}, "[pending:early i1 pending:late i2]"},
		{"one anchor, submission order", items(1, 2), []PendingEntry{entry("c", 1, 9), entry("a", 1, 3), entry("b", 1, 4)},
			"[i1 pending:a pending:b pending:c i2]"},
		{"entry between positions with gaps", items(10, 20), []PendingEntry{entry("a", 15, 1)}, "[i10 pending:a i20]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, r := range AppendRows(nil, tc.items, tc.pending) {
				got = append(got, r.Key())
			}
			if fmt.Sprint(got) != tc.want {
				t.Fatalf("rows %v, want %s", got, tc.want)
			}
			v := &View{Items: tc.items, Pending: tc.pending}
			if fmt.Sprint(rowKeys(v)) != tc.want {
				t.Fatalf("View.Rows %v, want %s", rowKeys(v), tc.want)
			}
		})
	}
}

// AppendRows reuses dst and points pending rows into pending.
func TestAppendRowsReusesBuffers(t *testing.T) {
	pend := []PendingEntry{{CommandID: "a", Anchor: 1, Order: 1}}
	dst := make([]Row, 0, 8)
	rows := AppendRows(dst, []*Item{{ID: "x", Position: 1}}, pend)
	if &rows[:1][0] != &dst[:1][0] {
		t.Fatal("rows were not appended to dst")
	}
	if rows[1].Pending != &pend[0] {
		t.Fatal("the pending row does not point into pending")
	}
}
