package tui

import (
	"fmt"
	"slices"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

func rowSetKeys(rows []model.Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Key())
	}
	return out
}

// The transcript's rows are exactly the View's rows, with the UI's failed
// prompts placed as if they were pending entries of the View: one rule.
func TestRowSetBuildIsViewRows(t *testing.T) {
	items := []*model.Item{{ID: "a", Position: 1}, {ID: "b", Position: 2}, {ID: "c", Position: 4}}
	entry := func(cid string, anchor int64, order uint64) model.PendingEntry {
		return model.PendingEntry{CommandID: cid, Anchor: anchor, Order: order}
	}
	for _, tc := range []struct {
		name           string
		pending, extra []model.PendingEntry
	}{
		{"items only", nil, nil},
		{"pending between items", []model.PendingEntry{entry("p2", 2, 2), entry("p1", 1, 1)}, nil},
		{"failed prompts among pending", []model.PendingEntry{entry("p1", 2, 1)}, []model.PendingEntry{entry("f1", 2, 0), entry("f2", 9, 5)}},
		{"failed prompts only", nil, []model.PendingEntry{entry("f1", 0, 1)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s rowSet
			s.build(&model.View{Items: items, Pending: tc.pending}, nil, tc.extra)
			want := (&model.View{Items: items, Pending: append(slices.Clone(tc.pending), tc.extra...)}).Rows()
			if got, w := rowSetKeys(s.rows), rowSetKeys(want); fmt.Sprint(got) != fmt.Sprint(w) {
				t.Fatalf("rowSet %v, View.Rows %v", got, w)
			}
		})
	}
}

// A rebuild reuses the set's buffers and drops the pointers it no longer
// uses, so that old items can be freed.
func TestRowSetRebuildReusesBuffers(t *testing.T) {
	var s rowSet
	long := &model.View{Items: []*model.Item{{ID: "a", Position: 1}, {ID: "b", Position: 2}, {ID: "c", Position: 3}}}
	s.build(long, nil, nil)
	first := &s.rows[:1][0]
	s.build(&model.View{Items: long.Items[:1]}, nil, nil)
	if &s.rows[:1][0] != first {
		t.Fatal("the rebuild allocated new rows")
	}
	if tail := s.rows[1:3]; tail[0].Item != nil || tail[1].Item != nil {
		t.Fatal("stale rows beyond the new length still point at items")
	}
}
