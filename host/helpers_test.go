package host_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// page is the view/page answer as the tests read it.
type page struct {
	Epoch       string              `json:"epoch"`
	Events      []model.PageElement `json:"events"`
	StartCursor string              `json:"startCursor"`
	EndCursor   string              `json:"endCursor"`
	HasNewer    bool                `json:"hasNewer"`
	HasOlder    bool                `json:"hasOlder"`
}

func getPage(t *testing.T, c *hosttest.Client, sid, epoch, dir, cursor string, limit int) page {
	t.Helper()
	var p page
	c.MustCall(t, "view/page", map[string]any{"sessionId": sid, "epoch": epoch, "direction": dir, "cursor": cursor, "limit": limit}, &p)
	return p
}

// pageAll reads every durable event of a session with after pages of
// limit, checking the prevCursor chain as it goes.
func pageAll(t *testing.T, c *hosttest.Client, sid, epoch string, limit int) []*model.Event {
	t.Helper()
	var out []*model.Event
	cursor := model.FormatCursor(sid, 0)
	prev := ""
	for i := 0; ; i++ {
		p := getPage(t, c, sid, epoch, "after", cursor, limit)
		if len(p.Events) > limit {
			t.Fatalf("page %d has %d events, limit %d", i, len(p.Events), limit)
		}
		for _, el := range p.Events {
			ev, err := model.DecodeNotification(el.Method, el.Params)
			if err != nil {
				t.Fatalf("page %d: %v", i, err)
			}
			want := "null"
			if prev != "" {
				want = fmt.Sprintf("%q", prev)
			}
			if got := prevCursorOf(el.Params); got != want {
				t.Fatalf("event %s: prevCursor %s, want %s (hole or duplicate)", model.FormatCursor(sid, ev.Seq), got, want)
			}
			prev = model.FormatCursor(sid, ev.Seq)
			out = append(out, ev)
		}
		if !p.HasNewer {
			return out
		}
		if len(p.Events) == 0 {
			t.Fatalf("page %d: hasNewer with no events", i)
		}
		cursor = p.EndCursor
	}
}

func prevCursorOf(params json.RawMessage) string {
	var p struct {
		PrevCursor json.RawMessage `json:"prevCursor"`
	}
	if json.Unmarshal(params, &p) != nil {
		return "<not an object>"
	}
	if len(p.PrevCursor) == 0 {
		return "<absent>"
	}
	return string(p.PrevCursor)
}

// snapshotState subscribes a fresh connection and loads the snapshot.
func snapshotState(t *testing.T, c *hosttest.Client, sid string) (*model.State, *hosttest.SubscribeResult) {
	t.Helper()
	sub, err := c.Subscribe(sid, "", "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if sub.Delivery != "snapshot" {
		t.Fatalf("delivery %q without a cursor", sub.Delivery)
	}
	st := model.NewState(sid)
	if _, err := st.LoadSnapshot(sid, sub.Epoch, *sub.Snapshot); err != nil {
		t.Fatal(err)
	}
	return st, sub
}

// foldAll folds events into a fresh state.
func foldAll(t *testing.T, sid string, evs []*model.Event) *model.State {
	t.Helper()
	st := model.NewState(sid)
	for _, ev := range evs {
		if err := st.Apply(ev); err != nil {
			t.Fatalf("fold seq %d: %v", ev.Seq, err)
		}
	}
	return st
}

func itemsOfKind(st *model.State, kind string) []*model.Item {
	var out []*model.Item
	for _, it := range st.Items() {
		if it.Kind == kind {
			out = append(out, it)
		}
	}
	return out
}

func rpcCode(t *testing.T, c *hosttest.Client, method string, params any) *model.RPCError {
	t.Helper()
	_, rerr, err := c.Call(method, params)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return rerr
}
