package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/internal/natstest"
	"github.com/lookout-sh/lookout/model"
)

// fleetHost starts a host of fleet "fl" on url; the host is closed when
// the test ends.
func fleetHost(t *testing.T, url, id string) *Host {
	t.Helper()
	return fleetHostTTL(t, url, id, time.Second)
}

// fleetHostTTL is fleetHost with a lease TTL of ttl: a test that needs no
// takeover uses a long one, so that a loaded machine (-race, 2 cores)
// pausing a host past a 1 s TTL cannot start one.
func fleetHostTTL(t *testing.T, url, id string, ttl time.Duration) *Host {
	t.Helper()
	h, err := Start(context.Background(), Options{
		Addr: "127.0.0.1:0", DataDir: t.TempDir(), Pace: time.Millisecond,
		Journal: url, JournalNamespace: "fl", FleetHostID: id, FleetLeaseTTL: ttl,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// die makes h dead to its fleet, as kill -9 would: it stops its
// heartbeat and its journal connection drops, without releasing anything.
func die(h *Host) {
	f := h.fl
	close(f.stop)
	f.cancel()
	f.done.Wait()
	f.stop = make(chan struct{}) // for close at cleanup
	f.mu.Lock()
	clear(f.leases)
	f.mu.Unlock()
	f.m.Close()
	f.js.nc.Close()
}

// hostDeathTurns counts the turn/completed events of a session that end a
// turn by a host's death.
func hostDeathTurns(t *testing.T, j journal, sid string) int {
	t.Helper()
	n := 0
	err := j.scan(sid, func(e journalEvent) error {
		if e.Method != model.MethodTurnCompleted {
			return nil
		}
		var p struct{ Error *struct{ Code string } }
		if err := json.Unmarshal(e.Params, &p); err != nil {
			return err
		}
		if p.Error != nil && p.Error.Code == "hostDeath" {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A session of a dead host is skipped by a host starting while the dead
// host's lease lives, then taken over by it while it runs once the lease
// expired (the host-death terminals written once), and taken over again
// by another host when that one shuts down, with nothing more written.
func TestFleetTakesOverADeadHostsSessionOnce(t *testing.T) {
	url := natstest.Start(t, t.TempDir()).URL()
	a := fleetHost(t, url, "a")
	s, err := a.createSession("fleet")
	if err != nil {
		t.Fatal(err)
	}
	if _, rerr := s.submit("slow-1", "a slow one, please", "", false); rerr != nil {
		t.Fatal(rerr)
	}
	waitFor(t, "the slow turn to stream, committed", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.state.ActiveTurn() != nil && len(s.state.Items()) >= 2 && s.sentSeq == s.seq
	})
	die(a)

	b := fleetHost(t, url, "b")
	if b.session(s.id) != nil {
		t.Fatal("b loaded at start a session whose writer's lease still lives")
	}
	waitFor(t, "b to take the session over once a's lease expired", func() bool { return b.session(s.id) != nil })
	if n := hostDeathTurns(t, b.j, s.id); n != 1 {
		t.Fatalf("%d host-death turn ends after b's takeover, want 1", n)
	}
	taken := b.session(s.id)
	taken.mu.Lock()
	active := taken.state.ActiveTurn()
	taken.mu.Unlock()
	if active != nil {
		t.Fatalf("turn %s still active after the takeover", active.TurnID)
	}

	c := fleetHost(t, url, "c")
	if c.session(s.id) != nil {
		t.Fatal("c loaded the session b writes")
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "c to take the session b released", func() bool { return c.session(s.id) != nil })
	if n := hostDeathTurns(t, c.j, s.id); n != 1 {
		t.Fatalf("%d host-death turn ends after c took over, want 1", n)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestFleetHostNeedsAJetStreamJournal(t *testing.T) {
	h, err := Start(context.Background(), Options{Addr: "127.0.0.1:0", DataDir: t.TempDir(), FleetHostID: "a"})
	if h != nil {
		h.Close()
	}
	if !errors.Is(err, errFleetNeedsJournal) {
		t.Fatalf("start = %v, want errFleetNeedsJournal", err)
	}
}

// A fleet host asked to stop while NATS is unreachable stops within its
// shutdown budget, whatever it could not persist (it took 15 s a session
// for the index alone, and 10 s more a lease), and starts again from the
// journal once NATS is back.
func TestFleetShutdownWhileNATSIsDownIsBounded(t *testing.T) {
	dir := t.TempDir()
	node := natstest.Start(t, dir)
	h, err := Start(context.Background(), Options{
		Addr: "127.0.0.1:0", DataDir: t.TempDir(), Pace: time.Millisecond,
		Journal: node.URL(), JournalNamespace: "sd", FleetHostID: "a", FleetLeaseTTL: time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for range 5 {
		s, err := h.createSession("down")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.id)
	}
	node.Kill()
	start := time.Now()
	h.Close()
	if took := time.Since(start); took > shutdownJournalBudget+10*time.Second {
		t.Fatalf("shutdown with NATS down took %v, want about %v at most", took, shutdownJournalBudget)
	}
	if err := node.Restart(); err != nil {
		t.Fatal(err)
	}
	b, err := Start(context.Background(), Options{
		Addr: "127.0.0.1:0", DataDir: t.TempDir(), Pace: time.Millisecond,
		Journal: node.URL(), JournalNamespace: "sd", FleetHostID: "b", FleetLeaseTTL: time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	for _, id := range ids {
		waitFor(t, "the stopped host's sessions to be served again", func() bool {
			s, err := b.loadedSession(id)
			return err == nil && s != nil
		})
	}
}

// A host lists the fleet's other sessions from the directory, as their
// writer published them (title, status, head), and holds nothing for
// them; the first real use of one makes it a replica, which is evicted
// once idle, and the listing is dropped once no page is asked.
func TestFleetListsFromTheDirectory(t *testing.T) {
	url := natstest.Start(t, t.TempDir()).URL()
	a := fleetHostTTL(t, url, "a", 15*time.Second)
	var ids []string
	for i := range 3 {
		s, err := a.createSession(fmt.Sprintf("listed %d", i))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.id)
	}
	b := fleetHostTTL(t, url, "b", 15*time.Second)
	list := func() []map[string]any {
		l, start, err := b.fleetListing(b.fleet(), "", 100)
		if err != nil || start != 0 {
			t.Fatalf("listing: start %d, %v", start, err)
		}
		return listPage(l, start, 100, PageBytes).Sessions
	}
	waitFor(t, "b to list a's sessions with their titles", func() bool {
		titled := 0
		for _, e := range list() {
			if strings.HasPrefix(e["title"].(string), "listed ") && e["host"] == "a" {
				titled++
			}
		}
		return titled == 3
	})
	for _, id := range ids {
		if s := b.session(id); s != nil {
			t.Fatalf("b holds listed session %s as %+v: want nothing", id, s)
		}
	}
	s, err := b.loadedSession(ids[0])
	if err != nil || s == nil || !s.loaded.Load() || !s.replica {
		t.Fatalf("first use of a listed session: %v, %v", s, err)
	}
	if got := list(); len(got) != 3 || got[0]["sessionId"] != ids[0] {
		t.Fatalf("b lists %v after a replica was made, want the 3 sessions in creation order", got)
	}
	if n := b.evictIdleReplicas(time.Now().Add(-time.Hour)); n != 0 {
		t.Fatalf("evicted %d replicas used within the hour", n)
	}
	if n := b.evictIdleReplicas(time.Now().Add(time.Second)); n != 1 || b.session(ids[0]) != nil {
		t.Fatalf("evicted %d idle replicas, still holds %v", n, b.session(ids[0]))
	}
	if got := list(); len(got) != 3 {
		t.Fatalf("b lists %d sessions after the eviction, want 3", len(got))
	}
	st := &b.fleetList
	st.mu.Lock()
	st.used = time.Now().Add(-listingIdle)
	st.mu.Unlock()
	st.dropIfIdle()
	st.mu.Lock()
	held := len(st.order) + len(st.dir)
	st.mu.Unlock()
	if held != 0 {
		t.Fatalf("an idle listing still holds %d entries", held)
	}
}

// A replica a client subscribes to is never evicted; once its last
// subscriber leaves, it is after ReplicaIdle, and the next use makes a
// new one that follows the writer as before.
func TestFleetEvictsOnlyUnusedReplicas(t *testing.T) {
	url := natstest.Start(t, t.TempDir()).URL()
	a := fleetHostTTL(t, url, "a", 15*time.Second)
	sa, err := a.createSession("evicted")
	if err != nil {
		t.Fatal(err)
	}
	b := fleetHostTTL(t, url, "b", 15*time.Second)
	r, err := b.loadedSession(sa.id)
	if err != nil || r == nil {
		t.Fatal(r, err)
	}
	c := &conn{h: b}
	r.mu.Lock()
	r.subs[c] = struct{}{}
	r.mu.Unlock()
	if n := b.evictIdleReplicas(time.Now().Add(time.Hour)); n != 0 || b.session(sa.id) != r {
		t.Fatalf("evicted %d replicas, one with a subscriber", n)
	}
	r.unsubscribe(c)
	if n := b.evictIdleReplicas(time.Now().Add(time.Hour)); n != 1 || !r.isRetired() {
		t.Fatalf("evicted %d replicas after the last subscriber left (retired %v)", n, r.isRetired())
	}
	again, err := b.loadedSession(sa.id)
	if err != nil || again == nil || again == r {
		t.Fatalf("the next use found %p (evicted %p), %v", again, r, err)
	}
	if err := (Session{s: sa}).SetState(map[string]any{"title": "renamed"}); err != nil {
		t.Fatal(err)
	}
	if err := sa.flush(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the new replica to follow the writer", func() bool { return again.summary()["title"] == "renamed" })
}

// A lapse of this host's liveness and a take (create, takeover) never
// interleave: a lapsed incarnation takes nothing, and a session whose
// takeover the lapse overtook is stepped down once restored, never served
// as written under a void lease. Chaos seed 566 found the second: a host
// paused during a takeover kept serving a stale transcript as writer.
func TestFleetLapseDuringATakeoverStepsTheSessionDown(t *testing.T) {
	url := natstest.Start(t, t.TempDir()).URL()
	a := fleetHost(t, url, "a")
	s, err := a.createSession("lapse")
	if err != nil {
		t.Fatal(err)
	}
	die(a)

	gate := make(chan struct{})
	b, err := Start(context.Background(), Options{
		Addr: "127.0.0.1:0", DataDir: t.TempDir(), Pace: time.Millisecond,
		Journal: url, JournalNamespace: "fl", FleetHostID: "b", FleetLeaseTTL: time.Second,
		takeoverGate: func(sid string) {
			if sid == s.id {
				<-gate
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	f := b.fleet()
	waitFor(t, "b to hold the lease, mid-takeover", func() bool { return f.holds(s.id) })
	// As if b was paused past its deadline right here. The lapse steps
	// down what b writes, which waits for the takeover in progress.
	lapsed := make(chan struct{})
	go func() { f.lapse(errLivenessDeadline); close(lapsed) }()
	waitFor(t, "the lapse to begin", func() bool { return !f.holds(s.id) })
	close(gate)
	<-lapsed
	if f.needRejoin.Load() {
		if err := f.take("another"); !errors.Is(err, errLivenessDeadline) {
			t.Fatalf("a lapsed incarnation took a session: %v", err)
		}
	}
	waitFor(t, "b to step the overtaken takeover down (or take it again, claimed anew)", func() bool {
		bs := b.session(s.id)
		if bs == nil {
			return false
		}
		bs.mu.Lock()
		replica := bs.replica
		bs.mu.Unlock()
		return replica || bs.isRetired() || f.holds(s.id)
	})
	// Whatever b serves now, it writes the session only with a lease of
	// its current incarnation.
	if bs := b.session(s.id); bs != nil && !bs.replica && !bs.isRetired() && !f.holds(s.id) {
		t.Fatal("b serves the session as its writer without a lease")
	}
}

// A lapse that comes while a take is between its claim and counting the
// lease waits for the take, and then steps the session down: it never
// misses a lease taken under the incarnation that lapsed.
func TestFleetLapseWaitsForATakeInProgress(t *testing.T) {
	url := natstest.Start(t, t.TempDir()).URL()
	a := fleetHost(t, url, "a")
	s, err := a.createSession("lapse")
	if err != nil {
		t.Fatal(err)
	}
	die(a)
	inTake, release := make(chan struct{}), make(chan struct{})
	restoring, restore := make(chan struct{}), make(chan struct{})
	var takeOnce, restoreOnce gosync.Once
	b, err := Start(context.Background(), Options{
		Addr: "127.0.0.1:0", DataDir: t.TempDir(), Pace: time.Millisecond,
		Journal: url, JournalNamespace: "fl", FleetHostID: "b", FleetLeaseTTL: time.Second,
		claimedGate: func(sid string) {
			if sid == s.id {
				takeOnce.Do(func() { close(inTake); <-release })
			}
		},
		takeoverGate: func(sid string) {
			if sid == s.id {
				restoreOnce.Do(func() { close(restoring); <-restore })
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	f := b.fleet()
	<-inTake
	lapsed := make(chan struct{})
	go func() { f.lapse(errLivenessDeadline); close(lapsed) }()
	time.Sleep(100 * time.Millisecond) // a lapse that did not wait would be over
	close(release)
	// The take is done and the takeover waits at its gate; nothing else
	// adopts meanwhile (one adoption at a time).
	<-restoring
	time.Sleep(100 * time.Millisecond) // the lapse's turn, after the take
	held := f.holds(s.id)
	close(restore)
	<-lapsed
	if held {
		t.Fatal("after the lapse b still counts a lease it took under the lapsed incarnation")
	}
}
