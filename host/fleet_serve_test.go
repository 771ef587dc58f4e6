package host_test

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/internal/natstest"
	"github.com/lookout-sh/lookout/model"
)

// startFleetHost starts host id of fleet "fs" on the NATS server at url.
func startFleetHost(t *testing.T, url, id string) *host.Host {
	t.Helper()
	return hosttest.Start(t, host.Options{Journal: url, JournalNamespace: "fs", FleetHostID: id, FleetLeaseTTL: time.Second})
}

// Host b serves a session host a writes: its subscriber sees the turn a
// prompt sent through b starts on a, live, with an unbroken prevCursor
// chain; the prompt, sent twice with one commandId, runs once; b's pages
// and snapshot equal a's; session/list on both names a as its host.
func TestFleetHostServesAndForwardsAnotherHostsSession(t *testing.T) {
	url := natstest.Start(t, t.TempDir()).URL()
	a, b := startFleetHost(t, url, "a"), startFleetHost(t, url, "b")
	ca, cb := hosttest.Dial(t, a), hosttest.Dial(t, b)
	sid, epoch, sta := newSession(t, ca)

	stb, sub := snapshotState(t, cb, sid)
	if sub.Epoch != epoch {
		t.Fatalf("b serves epoch %s, a %s", sub.Epoch, epoch)
	}
	_, turn, err := cb.Submit(sid, "fwd-1", "hello through b")
	if err != nil {
		t.Fatal(err)
	}
	_, again, err := cb.Submit(sid, "fwd-1", "hello through b")
	if err != nil {
		t.Fatal(err)
	}
	_, direct, err := ca.Submit(sid, "fwd-1", "hello through b")
	if err != nil {
		t.Fatal(err)
	}
	if turn == "" || again != turn || direct != turn {
		t.Fatalf("the repeated submit names turn %q (through b) and %q (to a), the first %q", again, direct, turn)
	}
	prev := stb.DurableCursor
	_, seen, err := cb.WaitEvent(stb, hosttest.TurnCompleted(turn))
	if err != nil {
		t.Fatal(err)
	}
	deltas := 0
	for _, ev := range seen {
		if ev.Method == model.MethodItemDelta {
			deltas++
		}
		if !ev.Durable {
			continue
		}
		if ev.PrevSeq != prev {
			t.Fatalf("b relays seq %d with prevCursor %d, want %d", ev.Seq, ev.PrevSeq, prev)
		}
		prev = ev.Seq
	}
	if deltas == 0 {
		t.Fatal("b relayed no delta of the turn")
	}
	if _, _, err := ca.WaitEvent(sta, hosttest.TurnCompleted(turn)); err != nil {
		t.Fatal(err)
	}

	evA := pageAll(t, ca, sid, epoch, 7)
	waitExport(t, cb, rawExport(t, ca, sid, epoch), sid, epoch)
	if !slices.EqualFunc(rawExport(t, cb, sid, epoch), rawExport(t, ca, sid, epoch), bytes.Equal) {
		t.Fatal("b exports the idle session otherwise than a")
	}
	pageAll(t, cb, sid, epoch, 3) // b's pages chain, at another page size
	started := 0
	for _, ev := range evA {
		if ev.Method == model.MethodTurnStarted {
			started++
		}
	}
	if started != 1 {
		t.Fatalf("%d turns started for one commandId sent twice through b", started)
	}
	snapA, _ := snapshotState(t, hosttest.Dial(t, a), sid)
	snapB, _ := snapshotState(t, hosttest.Dial(t, b), sid)
	for name, st := range map[string]*model.State{"b's snapshot": snapB, "b's live fold": stb} {
		if !sameItems(st, snapA) {
			t.Fatalf("%s holds other items than a's snapshot", name)
		}
	}
	if !sameItems(foldAll(t, sid, evA), snapA) {
		t.Fatal("the full fold of the pages differs from the snapshot")
	}
	before := func(c *hosttest.Client) page { return getPage(t, c, sid, epoch, "before", "", 3) }
	if pa, pb := before(ca), before(cb); !slices.EqualFunc(pa.Events, pb.Events, func(x, y model.PageElement) bool { return bytes.Equal(x.Params, y.Params) }) {
		t.Fatal("b's page before the head differs from a's")
	}
	for _, c := range []*hosttest.Client{ca, cb} {
		if got := hostOf(t, c, sid); got != "a" {
			t.Fatalf("session/list names host %q for a's session, want a", got)
		}
	}
}

// An approval answered through host b, and a turn interrupted through
// it, for a session host a writes, reach a: the tool runs approved, the
// interrupted turn ends stopped.
func TestFleetHostForwardsApprovalsAndInterrupts(t *testing.T) {
	url := natstest.Start(t, t.TempDir()).URL()
	a, b := startFleetHost(t, url, "a"), startFleetHost(t, url, "b")
	ca, cb := hosttest.Dial(t, a), hosttest.Dial(t, b)
	sid, _, sta := newSession(t, ca)
	stb, _ := snapshotState(t, cb, sid)
	_, toolTurn, err := cb.Submit(sid, "tool-1", "tool please")
	if err != nil {
		t.Fatal(err)
	}
	asked, _, err := cb.WaitEvent(stb, func(ev *model.Event) bool { return ev.Method == model.MethodApprovalRequested })
	if err != nil {
		t.Fatal(err)
	}
	cb.MustCall(t, "approval/respond", map[string]any{"sessionId": sid, "approvalId": asked.ApprovalID, "decision": "approve"}, nil)
	resolved, _, err := ca.WaitEvent(sta, func(ev *model.Event) bool { return ev.Method == model.MethodApprovalResolved })
	if err != nil {
		t.Fatal(err)
	}
	if resolved.ApprovalID != asked.ApprovalID || resolved.Decision != "approve" {
		t.Fatalf("a resolved approval %s with %q, want %s approved", resolved.ApprovalID, resolved.Decision, asked.ApprovalID)
	}
	if _, _, err := ca.WaitEvent(sta, hosttest.TurnCompleted(toolTurn)); err != nil {
		t.Fatal(err)
	}
	_, turn, err := cb.Submit(sid, "slow-1", "a slow one, please")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ca.WaitEvent(sta, func(ev *model.Event) bool { return ev.Method == model.MethodTurnStarted }); err != nil {
		t.Fatal(err)
	}
	cb.MustCall(t, "turn/interrupt", map[string]any{"sessionId": sid, "turnId": turn}, nil)
	ev, _, err := ca.WaitEvent(sta, hosttest.TurnCompleted(turn))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Status != model.StatusStopped {
		t.Fatalf("the interrupted turn ends %q, want stopped", ev.Status)
	}
}

// waitExport pages the session from c until its export (every durable
// event's params, byte for byte) starts with want (a replica may be a
// relayed frame behind its writer, and a running writer goes on).
func waitExport(t *testing.T, c *hosttest.Client, want [][]byte, sid, epoch string) {
	t.Helper()
	deadline := time.Now().Add(hosttest.Timeout)
	for {
		got := rawExport(t, c, sid, epoch)
		if len(got) >= len(want) && slices.EqualFunc(got[:len(want)], want, bytes.Equal) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the export holds %d events, the writer's %d", len(got), len(want))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// rawExport is every durable event's params of a session, as c's host
// pages them.
func rawExport(t *testing.T, c *hosttest.Client, sid, epoch string) [][]byte {
	t.Helper()
	var out [][]byte
	cursor := model.FormatCursor(sid, 0)
	for {
		p := getPage(t, c, sid, epoch, "after", cursor, 5)
		for _, el := range p.Events {
			out = append(out, el.Params)
		}
		if !p.HasNewer {
			return out
		}
		cursor = p.EndCursor
	}
}

// sameItems reports whether two folds hold the same items, field for field.
func sameItems(x, y *model.State) bool {
	xs, ys := x.Items(), y.Items()
	return slices.EqualFunc(xs, ys, func(p, q *model.Item) bool {
		return bytes.Equal(p.AppendJSON(nil), q.AppendJSON(nil))
	})
}

// hostOf is the host session/list of c's host names for sid ("" when it
// does not list sid).
func hostOf(t *testing.T, c *hosttest.Client, sid string) string {
	t.Helper()
	var res struct {
		Sessions []struct {
			SessionID string `json:"sessionId"`
			Host      string `json:"host"`
		} `json:"sessions"`
	}
	c.MustCall(t, "session/list", map[string]any{}, &res)
	for _, s := range res.Sessions {
		if s.SessionID == sid {
			return s.Host
		}
	}
	return ""
}

// Paging through a fleet's sessions from a host that writes none of them
// repeats and skips none, and the sessions created meanwhile, on either
// host, come at the end; a cursor another listing gave still works, and
// one naming no session of the fleet is -32602.
func TestFleetListingPagesNeverRepeatOrSkip(t *testing.T) {
	url := natstest.Start(t, t.TempDir()).URL()
	a, b := startFleetHost(t, url, "a"), startFleetHost(t, url, "b")
	ca, cb := hosttest.Dial(t, a), hosttest.Dial(t, b)
	create := func(c *hosttest.Client) string {
		var cr struct {
			SessionID string `json:"sessionId"`
		}
		c.MustCall(t, "session/create", map[string]any{}, &cr)
		return cr.SessionID
	}
	var want []string
	for range 5 {
		want = append(want, create(ca))
	}
	type page struct {
		Sessions []struct {
			SessionID string `json:"sessionId"`
			Host      string `json:"host"`
		} `json:"sessions"`
		HasMore    bool    `json:"hasMore"`
		NextCursor *string `json:"nextCursor"`
	}
	var got []string
	params := map[string]any{"limit": 2}
	for i := 0; ; i++ {
		var p page
		cb.MustCall(t, "session/list", params, &p)
		for _, s := range p.Sessions {
			got = append(got, s.SessionID)
		}
		if i == 0 { // created while b's client pages
			want = append(want, create(ca), create(cb))
		}
		if !p.HasMore {
			break
		}
		params = map[string]any{"limit": 2, "cursor": *p.NextCursor}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("b listed %v, want %v", got, want)
	}
	var p page
	ca.MustCall(t, "session/list", map[string]any{"limit": 100, "cursor": "l:" + want[3]}, &p)
	if len(p.Sessions) != 3 || p.Sessions[0].SessionID != want[4] || p.Sessions[2].Host != "b" {
		t.Fatalf("a, given b's cursor, lists %+v", p.Sessions)
	}
	if _, rerr, err := cb.Call("session/list", map[string]any{"cursor": "l:no-such-session"}); err != nil || rerr == nil || rerr.Code != -32602 {
		t.Fatalf("an unknown cursor: %v, %v", rerr, err)
	}
}

// A fleet host lists what waits for the user of a session another host
// writes, from the fleet directory alone (it holds no replica of it).
func TestFleetListSaysWhatNeedsTheUser(t *testing.T) {
	url := natstest.Start(t, t.TempDir()).URL()
	a, b := startFleetHost(t, url, "a"), startFleetHost(t, url, "b")
	ca, cb := hosttest.Dial(t, a), hosttest.Dial(t, b)
	sid, _, sta := newSession(t, ca)
	if _, _, err := ca.Submit(sid, "tool-1", "tool please"); err != nil {
		t.Fatal(err)
	}
	asked, _, err := ca.WaitEvent(sta, func(ev *model.Event) bool { return ev.Method == model.MethodApprovalRequested })
	if err != nil {
		t.Fatal(err)
	}
	entry := func() map[string]any {
		var res struct{ Sessions []map[string]any }
		cb.MustCall(t, "session/list", map[string]any{}, &res)
		for _, e := range res.Sessions {
			if e["sessionId"] == sid {
				return e
			}
		}
		return nil
	}
	waitUntil(t, "b to list the waiting approval", func() bool {
		e := entry()
		return e != nil && e["needs"] == "approval" && e["pendingApprovals"] == float64(1) && e["host"] == "a"
	})
	ca.MustCall(t, "approval/respond", map[string]any{"sessionId": sid, "approvalId": asked.ApprovalID, "decision": "approve"}, nil)
	waitUntil(t, "b to list it answered", func() bool {
		e := entry()
		return e != nil && e["needs"] == nil && e["pendingApprovals"] == float64(0)
	})
	if host.HoldsSession(b, sid) {
		t.Fatal("b made a replica of a session it only listed")
	}
}
