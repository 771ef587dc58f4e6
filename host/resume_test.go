package host_test

import (
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// buildVariedSession creates an untitled session and plays several
// scenarios on it (approving the tool). It returns every event, durable and ephemeral, in seq order, and
// the live fold.
func buildVariedSession(t *testing.T, c *hosttest.Client) (sid, epoch string, events []*model.Event, st *model.State) {
	t.Helper()
	var cr struct{ SessionID string }
	c.MustCall(t, "session/create", map[string]any{}, &cr)
	sid = cr.SessionID
	sub, err := c.Subscribe(sid, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if sub.Head != model.FormatCursor(sid, 0) || len(sub.Snapshot.Items) != 0 {
		t.Fatalf("a new session's subscribe = %+v", sub)
	}
	epoch = sub.Epoch
	st = model.NewState(sid)
	prompts := []string{"tool please", "warning", "compact, unknown kind", "fail turn", "fail tool"}
	for _, p := range prompts {
		_, turn, err := c.Submit(sid, "cmd-"+p, p)
		if err != nil {
			t.Fatal(err)
		}
		for {
			ev, err := c.NextEvent()
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Apply(ev); err != nil {
				t.Fatal(err)
			}
			events = append(events, ev)
			if ev.Method == model.MethodApprovalRequested {
				c.MustCall(t, "approval/respond", map[string]any{"sessionId": sid, "approvalId": ev.ApprovalID, "decision": "approve"}, nil)
			}
			if ev.Method == model.MethodTurnCompleted && ev.TurnID == turn {
				break
			}
		}
	}
	return sid, epoch, events, st
}

func TestSubscribeAtEveryCursorGivesTheFullFold(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	c := hosttest.Dial(t, h)
	sid, epoch, events, full := buildVariedSession(t, c)
	want := string(full.Encode())
	if n := len(full.Items()); n >= 30 {
		t.Fatalf("%d items: the limit below must exceed it", n)
	}
	head := full.Cursor
	if events[len(events)-1].Seq != head {
		t.Fatalf("head %d, last event %d", head, events[len(events)-1].Seq)
	}
	r := hosttest.Dial(t, h)
	suffixes, snapshots := 0, 0
	for cur := int64(0); cur <= head; cur++ {
		pre := model.NewState(sid)
		newer := 0
		for _, ev := range events {
			if ev.Seq <= cur {
				if err := pre.Apply(ev); err != nil {
					t.Fatal(err)
				}
			} else if ev.Durable {
				newer++
			}
		}
		// limit 30 is above the session's item count (so a snapshot is
		// complete) and below its durable event count (so both deliveries
		// occur).
		sub, err := r.Subscribe(sid, model.FormatCursor(sid, cur), epoch, 30)
		if err != nil {
			t.Fatal(err)
		}
		if sub.Head != model.FormatCursor(sid, head) || sub.Epoch != epoch {
			t.Fatalf("cursor %d: head %s epoch %s", cur, sub.Head, sub.Epoch)
		}
		switch sub.Delivery {
		case "suffix":
			suffixes++
			last := cur
			for range newer {
				ev, err := r.NextEvent()
				if err != nil {
					t.Fatal(err)
				}
				if !ev.Durable || ev.Seq <= last {
					t.Fatalf("cursor %d: suffix event %s at %d after %d", cur, ev.Method, ev.Seq, last)
				}
				last = ev.Seq
				if err := pre.Apply(ev); err != nil {
					t.Fatal(err)
				}
			}
		case "snapshot":
			snapshots++
			if sub.Snapshot.Cursor != model.FormatCursor(sid, head) {
				t.Fatalf("cursor %d: snapshot at %s", cur, sub.Snapshot.Cursor)
			}
			if _, err := pre.LoadSnapshot(sid, epoch, *sub.Snapshot); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("delivery %q", sub.Delivery)
		}
		if got := string(pre.Encode()); got != want {
			t.Fatalf("cursor %d (%s): fold differs\n got %s\nwant %s", cur, sub.Delivery, got, want)
		}
		if n := r.Pending(); n != 0 {
			t.Fatalf("cursor %d: %d unexpected frames after the %s", cur, n, sub.Delivery)
		}
	}
	if suffixes == 0 || snapshots == 0 {
		t.Fatalf("%d suffix and %d snapshot deliveries: both paths should be exercised", suffixes, snapshots)
	}
	t.Logf("%d cursors: %d suffix, %d snapshot", head+1, suffixes, snapshots)

	// Another epoch, or too many newer events for limit: a snapshot.
	if sub, _ := r.Subscribe(sid, model.FormatCursor(sid, 3), "other-epoch", 1000); sub.Delivery != "snapshot" {
		t.Fatalf("foreign epoch: %s", sub.Delivery)
	}
	if sub, _ := r.Subscribe(sid, model.FormatCursor(sid, 3), epoch, 2); sub.Delivery != "snapshot" || len(sub.Snapshot.Items) != 2 || !sub.Snapshot.HasOlder {
		t.Fatalf("limit 2: %s, %d items", sub.Delivery, len(sub.Snapshot.Items))
	}
	// While an open item streams, a cursor before its deltas gets a
	// snapshot (a suffix would lose the streamed text); one after them a
	// suffix; live events follow either with no gap.
	r.MustCall(t, "session/unsubscribe", map[string]any{"sessionId": sid}, nil)
	if n := r.Pending(); n != 0 {
		t.Fatalf("%d frames after unsubscribe", n)
	}
	_, slow, _ := c.Submit(sid, "slow", "slow")
	var streamed []*model.Event
	for {
		ev, err := c.NextEvent()
		if err != nil {
			t.Fatal(err)
		}
		if err := full.Apply(ev); err != nil {
			t.Fatal(err)
		}
		streamed = append(streamed, ev)
		if ev.Method == model.MethodItemDelta && ev.Delta == "while. " {
			break
		}
	}
	var firstDelta int64
	for _, ev := range streamed {
		if ev.Method == model.MethodItemDelta && full.Item(ev.ItemID).Kind == model.KindAgentMessage {
			firstDelta = ev.Seq
			break
		}
	}
	if sub, _ := r.Subscribe(sid, model.FormatCursor(sid, firstDelta-1), epoch, 1000); sub.Delivery != "snapshot" {
		t.Fatalf("cursor before an open item's deltas: %s", sub.Delivery)
	}
	sub, err := r.Subscribe(sid, model.FormatCursor(sid, full.Cursor), epoch, 0)
	if err != nil || sub.Delivery != "suffix" {
		t.Fatalf("subscribe at head: %+v %v", sub, err)
	}
	if n := r.Pending(); n != 0 {
		t.Fatalf("%d frames for an unsubscribed connection", n)
	}
	r.MustCall(t, "turn/interrupt", map[string]any{"sessionId": sid, "turnId": slow}, nil)
	for {
		ev, err := r.NextEvent()
		if err != nil {
			t.Fatal(err)
		}
		if ev.Durable && ev.PrevSeq != full.DurableCursor {
			t.Fatalf("gap: prevCursor %d, last durable %d", ev.PrevSeq, full.DurableCursor)
		}
		if err := full.Apply(ev); err != nil {
			t.Fatal(err)
		}
		if ev.Method == model.MethodTurnCompleted {
			break
		}
	}
	snap, _ := snapshotState(t, hosttest.Dial(t, h), sid)
	if string(snap.Encode()) != string(full.Encode()) {
		t.Fatal("live fold after the interrupt != snapshot")
	}
}
