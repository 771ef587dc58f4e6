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

// beating keeps m live, as its host's heartbeat loop does, until the
// returned stop is called (the host dies) or the test ends.
func beating(t *testing.T, m *fleet.Member, ttl time.Duration) (stop func()) {
	t.Helper()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(ttl / 3)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				_ = m.Heartbeat(t.Context())
			}
		}
	})
	stop = sync.OnceFunc(func() { close(done); wg.Wait() })
	t.Cleanup(stop)
	return stop
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

// A lease holds while its host beats; once the host stops (as a dead
// host does) exactly one survivor takes it, and the dead host learns at
// its next heartbeat that its liveness lapsed; rejoined, it sees the
// lease held by the survivor.
func TestLeaseTakeoverAfterDeath(t *testing.T) {
	urls := cluster(t)
	const ttl = time.Second
	a, b := join(t, urls, "a", ttl), join(t, urls, "b", ttl)
	beating(t, b, ttl)
	ctx := t.Context()
	if _, err := a.Acquire(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	// a beats for three TTLs: its lease stays held.
	for range 9 {
		if err := a.Heartbeat(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Acquire(ctx, "s1"); !errors.Is(err, fleet.ErrHeld) {
			t.Fatalf("b's acquire of a live host's lease: %v", err)
		}
		time.Sleep(ttl / 3)
	}
	// a stops beating, as a dead host does.
	var lb *fleet.Lease
	var err error
	deadline := time.Now().Add(30 * time.Second)
	for lb == nil {
		if lb, err = b.Acquire(ctx, "s1"); err != nil && !errors.Is(err, fleet.ErrHeld) {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatal("b never took over the lease of a host that stopped beating")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if time.Now().Before(a.Deadline()) {
		t.Fatal("b took the lease before a's own deadline passed")
	}
	if err := a.Heartbeat(ctx); !errors.Is(err, fleet.ErrNotLive) {
		t.Fatalf("a's heartbeat after its liveness expired: %v, want ErrNotLive", err)
	}
	if err := a.Rejoin(ctx); err != nil {
		t.Fatal(err)
	}
	if h, err := a.Holder(ctx, "s1"); err != nil || h != "b" {
		t.Fatalf("holder = %q, %v", h, err)
	}
	if _, err := a.Acquire(ctx, "s1"); !errors.Is(err, fleet.ErrHeld) {
		t.Fatalf("a's acquire of b's lease: %v", err)
	}
	if err := b.Release(ctx, lb); err != nil {
		t.Fatal(err)
	}
	// A replica of the bucket may answer before it applied the release.
	acquireWithin(t, a, "s1", 10*time.Second)
}

// acquireWithin acquires sid's lease for m, asking again while another
// host seems to hold it, for at most d.
func acquireWithin(t *testing.T, m *fleet.Member, sid string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		_, err := m.Acquire(t.Context(), sid)
		if err == nil {
			return
		}
		if !errors.Is(err, fleet.ErrHeld) || time.Now().After(deadline) {
			t.Fatalf("acquire %s: %v", sid, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// The watches report a session free when its writer stops beating and
// taken when another host claims it: no polling of the buckets.
func TestWatchReportsFreeAndTakenSessions(t *testing.T) {
	urls := cluster(t)
	const ttl = 2 * time.Second
	a, b := join(t, urls, "a", ttl), join(t, urls, "b", ttl)
	stopA := beating(t, a, ttl)
	beating(t, b, ttl)
	ctx := t.Context()
	if _, err := a.Acquire(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	free, taken := make(chan string, 16), make(chan string, 16)
	if err := b.Watch(ctx, fleet.Watchers{Free: func(sid string) { free <- sid }, Taken: func(string) {}}); err != nil {
		t.Fatal(err)
	}
	if err := a.Watch(ctx, fleet.Watchers{Free: func(string) {}, Taken: func(sid string) { taken <- sid }}); err != nil {
		t.Fatal(err)
	}
	select {
	case sid := <-free:
		t.Fatalf("%s reported free while its writer beats", sid)
	case <-time.After(ttl):
	}
	// a stops beating: b hears s1 is free within about a TTL.
	stopA()
	select {
	case sid := <-free:
		if sid != "s1" {
			t.Fatalf("free %q, want s1", sid)
		}
	case <-time.After(10 * ttl):
		t.Fatal("b never heard that s1's writer died")
	}
	// Free is a candidate: the host's key may outlive the view's patience.
	acquireWithin(t, b, "s1", 10*ttl)
	select {
	case sid := <-taken:
		if sid != "s1" {
			t.Fatalf("taken %q, want s1", sid)
		}
	case <-time.After(10 * ttl):
		t.Fatal("a never heard that b took s1")
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
