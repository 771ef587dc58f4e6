package fleet_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/fleet"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/internal/leakcheck"
	"github.com/lookout-sh/lookout/internal/natstest"
	"github.com/lookout-sh/lookout/model"
)

func TestMain(m *testing.M) { leakcheck.Main(m) }

// cluster runs a 3-node cluster for one test.
func cluster(t *testing.T) string {
	t.Helper()
	return natstest.URLs(natstest.Cluster(t, t.TempDir(), 3))
}

func join(t *testing.T, urls, hostID string, ttl time.Duration) *fleet.Member {
	t.Helper()
	m, err := fleet.Join(t.Context(), fleet.Config{URLs: urls, Namespace: "f", Replicas: 3, HostID: hostID, HostURL: "ws://" + hostID + "/v1/ws", LeaseTTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func TestDirectoryListsTheWholeFleet(t *testing.T) {
	urls := cluster(t)
	a, b := join(t, urls, "a", 0), join(t, urls, "b", 0)
	ctx := t.Context()
	for _, r := range []struct {
		m   *fleet.Member
		sid string
	}{{a, "s1"}, {b, "s2"}, {a, "s3"}} {
		if err := r.m.Register(ctx, r.sid, "idle"); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Register(ctx, "s1", "running"); err != nil {
		t.Fatal(err)
	}
	// A listing is read by a consumer on any of the bucket's replicas, which
	// may not hold the last put yet: each member must come to list it.
	for _, m := range []*fleet.Member{a, b} {
		want := []string{"s1@a:running", "s2@b:idle", "s3@a:idle"}
		var got []string
		for deadline := time.Now().Add(hosttest.Timeout); ; time.Sleep(20 * time.Millisecond) {
			list, err := m.Sessions(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got = got[:0]
			for _, e := range list {
				got = append(got, e.SessionID+"@"+e.HostID+":"+e.State)
			}
			if slices.Equal(got, want) || time.Now().After(deadline) {
				break
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s lists %v, want %v", m.HostID(), got, want)
		}
	}
	if e, err := b.Lookup(ctx, "s3"); err != nil || e.HostURL != "ws://a/v1/ws" {
		t.Fatalf("lookup = %+v, %v", e, err)
	}
}

func TestOneHostWinsALease(t *testing.T) {
	urls := cluster(t)
	const hosts = 5
	members := make([]*fleet.Member, hosts)
	for i := range members {
		members[i] = join(t, urls, fmt.Sprint("h", i), 0)
	}
	var wg sync.WaitGroup
	errs := make([]error, hosts)
	for i, m := range members {
		wg.Go(func() { _, errs[i] = m.Acquire(t.Context(), "s1") })
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, fleet.ErrHeld):
			t.Fatalf("h%d: %v", i, err)
		}
	}
	if won != 1 {
		t.Fatalf("%d hosts won the lease, want 1 (%v)", won, errs)
	}
}

// A dead host's lease expires and exactly one survivor takes it; the dead
// host cannot renew it after.
func TestLeaseTakeoverAfterDeath(t *testing.T) {
	urls := cluster(t)
	const ttl = time.Second
	a, b := join(t, urls, "a", ttl), join(t, urls, "b", ttl)
	ctx := t.Context()
	la, err := a.Acquire(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Acquire(ctx, "s1"); !errors.Is(err, fleet.ErrHeld) {
		t.Fatalf("b's acquire of a live lease: %v", err)
	}
	if err := a.Renew(ctx, la); err != nil {
		t.Fatal(err)
	}
	// a stops renewing, as a dead host does.
	var lb *fleet.Lease
	deadline := time.Now().Add(30 * time.Second)
	for lb == nil {
		if lb, err = b.Acquire(ctx, "s1"); err != nil && !errors.Is(err, fleet.ErrHeld) {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatal("b never took over the expired lease")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if h, err := a.Holder(ctx, "s1"); err != nil || h != "b" {
		t.Fatalf("holder = %q, %v", h, err)
	}
	if err := a.Renew(ctx, la); !errors.Is(err, fleet.ErrLost) {
		t.Fatalf("a's renewal after the takeover: %v", err)
	}
	if err := b.Release(ctx, lb); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Acquire(ctx, "s1"); err != nil {
		t.Fatalf("acquire after a release: %v", err)
	}
}

func TestLiveFramesAreRelayedInOrder(t *testing.T) {
	urls := cluster(t)
	a, b := join(t, urls, "a", 0), join(t, urls, "b", 0)
	got := make(chan string, 200)
	stop, err := b.SubscribeLive("s1", func(f []byte) { got <- string(f) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	})
	// b's interest reaches a's server over the cluster's routes some time
	// after the subscribe: frames before that are not delivered (a replica
	// reads such a gap from the journal). Probe until one arrives.
	waitRelayed(t, a, "s1", got)
	for i := range 100 {
		if err := a.PublishLive("s1", fmt.Appendf(nil, `{"seq":%d}`, i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.PublishLive("s2", []byte("other")); err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		select {
		case f := <-got:
			if want := fmt.Sprintf(`{"seq":%d}`, i); f != want {
				t.Fatalf("frame %d = %s, want %s", i, f, want)
			}
		case <-time.After(hosttest.Timeout):
			t.Fatalf("frame %d never came", i)
		}
	}
}

// waitRelayed publishes probes on sid's live subject from m until one
// arrives on got, then drops the probes still on their way.
func waitRelayed(t *testing.T, m *fleet.Member, sid string, got chan string) {
	t.Helper()
	const probe = `{"probe":true}`
	deadline := time.After(hosttest.Timeout)
	for arrived := false; !arrived; {
		if err := m.PublishLive(sid, []byte(probe)); err != nil {
			t.Fatal(err)
		}
		select {
		case f := <-got:
			if f != probe {
				t.Fatalf("a frame %s came before any probe", f)
			}
			arrived = true
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			t.Fatal("no probe was relayed")
		}
	}
	for {
		select {
		case f := <-got:
			if f != probe {
				t.Fatalf("a frame %s came among the probes", f)
			}
		case <-time.After(100 * time.Millisecond):
			return
		}
	}
}

// A prompt forwarded from host b to host a, which writes the session,
// runs once on a however often it is sent with its commandId.
func TestForwardedPromptRunsOnceOnTheWriter(t *testing.T) {
	urls := cluster(t)
	ha := hosttest.Start(t, host.Options{Journal: urls, JournalNamespace: "f", JournalReplicas: 3})
	ca := hosttest.Dial(t, ha)
	var cr struct{ SessionID string }
	ca.MustCall(t, "session/create", map[string]any{"title": "fleet"}, &cr)
	sid := cr.SessionID
	sub, err := ca.Subscribe(sid, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	st := model.NewState(sid)
	if _, err := st.LoadSnapshot(sid, sub.Epoch, *sub.Snapshot); err != nil {
		t.Fatal(err)
	}
	a, b := join(t, urls, "a", 0), join(t, urls, "b", 0)
	if err := a.Register(t.Context(), sid, "idle"); err != nil {
		t.Fatal(err)
	}
	stop, err := a.Serve(func(_ context.Context, method string, params json.RawMessage) (json.RawMessage, json.RawMessage) {
		res, rerr, err := ca.Call(method, params)
		if err != nil {
			return nil, json.RawMessage(fmt.Sprintf(`{"code":-32603,"message":%q}`, err.Error()))
		}
		if rerr != nil {
			raw, _ := json.Marshal(rerr)
			return nil, raw
		}
		return res, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	})

	entry, err := b.Lookup(t.Context(), sid)
	if err != nil {
		t.Fatal(err)
	}
	params, _ := json.Marshal(map[string]any{"sessionId": sid, "commandId": "cmd-1", "text": "hello from b"})
	var turns []string
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 3 { // a client retrying, through b, all at once
		wg.Go(func() {
			res, rerr, err := b.Forward(t.Context(), entry.HostID, "turn/submit", params)
			if err != nil || rerr != nil {
				t.Errorf("forward: %v %s", err, rerr)
				return
			}
			var r struct{ TurnID string }
			if err := json.Unmarshal(res, &r); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			turns = append(turns, r.TurnID)
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(turns) != 3 || turns[0] == "" || turns[1] != turns[0] || turns[2] != turns[0] {
		t.Fatalf("turn ids %v: want one turn", turns)
	}
	if _, _, err := ca.WaitEvent(st, hosttest.TurnCompleted(turns[0])); err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, it := range st.Items() {
		if it.Kind == model.KindUserMessage && it.CommandID() == "cmd-1" {
			ran++
		}
	}
	if ran != 1 {
		t.Fatalf("the forwarded prompt ran %d times on a", ran)
	}
	if _, _, err := b.Forward(t.Context(), "nobody", "turn/submit", params); !errors.Is(err, fleet.ErrNoHost) {
		t.Fatalf("forward to a host not in the fleet: %v", err)
	}
}
