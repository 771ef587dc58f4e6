package tui

import (
	"testing"

	"github.com/lookout-sh/lookout/model"
)

func TestUnqueuePick(t *testing.T) {
	queued := func(cid string) model.PendingEntry {
		return model.PendingEntry{CommandID: cid, Status: model.PendingQueued}
	}
	sending := func(cid string) model.PendingEntry {
		return model.PendingEntry{CommandID: cid, Status: model.PendingSending}
	}
	hostQueue := []model.QueuedTurn{{TurnID: "t1", CommandID: "q1"}, {TurnID: "t2", CommandID: "q2"}}
	sel := func(e model.PendingEntry) *model.PendingEntry { return &e }
	tests := []struct {
		name     string
		selected *model.PendingEntry
		queued   []model.QueuedTurn
		pending  []model.PendingEntry
		want     string
	}{
		{"nothing anywhere", nil, nil, nil, ""},
		{"the selected queued prompt wins over the host's newest", sel(queued("q1")), hostQueue, nil, "q1"},
		{"a selected prompt still sending is not taken", sel(sending("s1")), hostQueue, nil, "q2"},
		{"no selection: the host's newest queued turn", nil, hostQueue, []model.PendingEntry{queued("p1")}, "q2"},
		{"no host queue: the newest pending prompt known queued", nil, nil, []model.PendingEntry{queued("p1"), queued("p2"), sending("p3")}, "p2"},
		{"pending prompts none queued", nil, nil, []model.PendingEntry{sending("p1")}, ""},
		{"a selected sending prompt and nothing queued", sel(sending("s1")), nil, []model.PendingEntry{sending("s1")}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := unqueuePick(tc.selected, tc.queued, tc.pending); got != tc.want {
				t.Errorf("unqueuePick = %q, want %q", got, tc.want)
			}
		})
	}
}
