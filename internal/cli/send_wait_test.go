package cli

import (
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

func TestSendWaitNotice(t *testing.T) {
	live := sendWait{fresh: sync.Live}
	cases := []struct {
		name      string
		prev, cur sendWait
		want      string // a part of the notice; "" for none
	}{
		{"nothing changed", live, live, ""},
		{"the link drops", live, sendWait{fresh: sync.Reconnecting, err: "connection refused"}, "unreachable: connection refused; reconnecting"},
		{"still down", sendWait{fresh: sync.Reconnecting}, sendWait{fresh: sync.Reconnecting, err: "again"}, ""},
		{"back", sendWait{fresh: sync.Reconnecting}, sendWait{fresh: sync.Updating}, "reconnected"},
		{"queued behind one", live, sendWait{fresh: sync.Live, queued: 1, ahead: "T1"}, "1 turn ahead of it, behind turn T1"},
		{"moved up", sendWait{fresh: sync.Live, queued: 2, ahead: "T1"}, sendWait{fresh: sync.Live, queued: 1, ahead: "T2"}, "1 turn ahead"},
		{"two ahead", live, sendWait{fresh: sync.Live, queued: 2}, "2 turns ahead of it, behind the running turn"},
		{"queue unchanged", sendWait{fresh: sync.Live, queued: 1, ahead: "T1"}, sendWait{fresh: sync.Live, queued: 1, ahead: "T1"}, ""},
		{"started", sendWait{fresh: sync.Live, queued: 1}, live, ""},
		{"a hostile error is one clean line", live, sendWait{fresh: sync.Reconnecting, err: "x\x1b[2Jy\nz"}, "unreachable: x"},
	}
	for _, c := range cases {
		got := sendWaitNotice(c.prev, c.cur)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want one with %q", c.name, got, c.want)
		}
		if strings.ContainsAny(got, "\x1b\n") {
			t.Errorf("%s: %q holds a control", c.name, got)
		}
	}
}

func TestSendWaitOf(t *testing.T) {
	v := &model.View{ActiveTurn: &model.ActiveTurn{TurnID: "T1", CommandID: "c0"},
		QueuedTurns: []model.QueuedTurn{{TurnID: "T2", CommandID: "c1"}, {TurnID: "T3", CommandID: "c2"}}}
	w := sendWaitOf(sync.Picture{View: v, Freshness: sync.Freshness{State: sync.Live}}, "c2")
	if w.queued != 2 || w.ahead != "T1" {
		t.Fatalf("%+v: want queued 2 behind T1", w)
	}
	if w := sendWaitOf(sync.Picture{View: v}, "c0"); w.queued != 0 {
		t.Fatalf("the running prompt reads as queued: %+v", w)
	}
}
