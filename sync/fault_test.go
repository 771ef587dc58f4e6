package sync

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// fastClient runs a client whose backoff waits are shrunk (x0.02: 20 ms
// to 600 ms) so that fault schedules finish quickly; the schedule of
// waits is the product's.
func fastClient(t testing.TB, o Options) *runningClient {
	t.Helper()
	return runScaledClient(t, o, 0.02)
}

// settle heals the proxy, waits until the client is idle and checks the
// invariants: same fold as the host, every prompt folded exactly once, no
// ghost pending entry, no item twice.
func settle(t *testing.T, p *faultProxy, c *runningClient, h *host.Host, sid string, cids []string) {
	t.Helper()
	p.CutEach(0, 0)
	p.Drop(nil)
	p.Refuse(false)
	s := waitFor(t, c.Client, "idle after the schedule", func(s Picture) bool {
		if !idle(s) {
			return false
		}
		n := userMessages(s.View)
		for _, cid := range cids {
			if n[cid] == 0 {
				return false
			}
		}
		return true
	})
	checkTranscript(t, s.View)
	n := userMessages(s.View)
	for _, cid := range cids {
		if n[cid] != 1 {
			t.Fatalf("prompt %s folded %d times", cid, n[cid])
		}
	}
	sameAsHost(t, c.Client, h.URL(), h.Token(), sid)
}

// TestRandomCutsMidFrame cuts every connection after a random number of the
// host's bytes (mid-frame included) while prompts stream, for several
// seeds.
func TestRandomCutsMidFrame(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			h := startHost(t, host.Options{Pace: time.Millisecond})
			sid := createSession(t, h.URL(), h.Token(), "cuts")
			p := newFaultProxy(t, h.Addr(), seed)
			p.CutEach(1500, 40000)
			c := fastClient(t, Options{URL: p.URL(), Token: h.Token(), SessionID: sid, Deltas: true})
			rng := rand.New(rand.NewPCG(seed, 7))
			var cids []string
			for i := range 5 {
				cids = append(cids, c.Submit(fmt.Sprintf("prompt %d of seed %d: compact and warning", i, seed)))
				// Let a random number of connections go by (or the prompt
				// settle, when the traffic left is too small to be cut).
				target, cid := p.Accepted()+rng.IntN(3), cids[i]
				waitFor(t, c.Client, "connections to cycle", func(Picture) bool {
					_, settled := c.Settlement(cid)
					return p.Accepted() >= target || settled
				})
			}
			settle(t, p, c, h, sid, cids)
			if p.Accepted() < 2 {
				t.Fatalf("the schedule never cut a connection (%d accepted)", p.Accepted())
			}
		})
	}
}

// TestDroppedDurableFramesAreAGap drops some of the host's durable
// notifications on an otherwise healthy connection: the next durable event
// names a prevCursor the client does not hold, and the client pages the gap
// in.
func TestDroppedDurableFramesAreAGap(t *testing.T) {
	h := startHost(t, host.Options{})
	sid := createSession(t, h.URL(), h.Token(), "gaps")
	p := newFaultProxy(t, h.Addr(), 9)
	c := fastClient(t, Options{URL: p.URL(), Token: h.Token(), SessionID: sid, Deltas: true})
	waitFor(t, c.Client, "live", isLive)
	accepted := p.Accepted()
	n := 0
	p.Drop(func(b []byte) bool {
		// Every third item/completed notification vanishes.
		// Only notifications: page answers hold such methods too.
		if f, err := model.ParseFrame(b); err == nil && f.Method == model.MethodItemCompleted {
			n++
			return n%3 == 0
		}
		return false
	})
	var cids []string
	for i := range 3 {
		cids = append(cids, c.Submit(fmt.Sprintf("gap prompt %d", i)))
	}
	waitFor(t, c.Client, "turns done", func(s Picture) bool {
		for _, cid := range cids {
			if _, ok := c.Settlement(cid); !ok {
				return false
			}
		}
		return idle(s)
	})
	if p.Dropped() == 0 || c.stats.gaps.Load() == 0 || c.stats.afterPages.Load() == 0 {
		t.Fatalf("dropped %d frames, detected %d gaps, paged %d times", p.Dropped(), c.stats.gaps.Load(), c.stats.afterPages.Load())
	}
	settle(t, p, c, h, sid, cids)
	if p.Accepted() != accepted {
		t.Fatalf("gap recovery reconnected (%d connections, want %d): it must page on the same connection", p.Accepted(), accepted)
	}
}

// TestRefusedForAWhile: the host is unreachable for a while; the client
// reports reconnecting with the next attempt's time and a growing attempt
// count, a user retry attempts at once and stays reconnecting (backoff
// reset, last error kept: never an error-shaped banner), and once the
// host is back the client goes live and sends what was submitted offline.
func TestRefusedForAWhile(t *testing.T) {
	h := startHost(t, host.Options{})
	sid := createSession(t, h.URL(), h.Token(), "refuse")
	p := newFaultProxy(t, h.Addr(), 4)
	p.Refuse(true)
	c := fastClient(t, Options{URL: p.URL(), Token: h.Token(), SessionID: sid})
	s := waitFor(t, c.Client, "reconnecting with backoff", func(s Picture) bool {
		return s.Freshness.State == Reconnecting && s.Freshness.Attempt >= 3
	})
	if s.Freshness.NextAttempt.IsZero() || s.Freshness.Err == "" || s.Freshness.Reason != ReasonUnreachable {
		t.Fatalf("reconnecting banner lacks its data: %+v", s.Freshness)
	}
	cid := c.Submit("sent while offline")
	waitFor(t, c.Client, "offline pending entry", func(s Picture) bool { return len(s.View.Pending) == 1 })
	accepted := p.Accepted()
	c.Retry()
	s = waitFor(t, c.Client, "the user's retry attempts and fails back to reconnecting", func(s Picture) bool {
		f := s.Freshness
		if f.State == Error || f.State == Retrying {
			t.Fatalf("a user retry while reconnecting made the banner %s: %+v", f.State, f)
		}
		return p.Accepted() > accepted && f.State == Reconnecting && !f.NextAttempt.IsZero()
	})
	if s.Freshness.Err == "" {
		t.Fatalf("the last error was lost: %+v", s.Freshness)
	}
	p.Refuse(false)
	c.Retry()
	settle(t, p, c, h, sid, []string{cid})
	if f := c.Current().Freshness; f.State != Live || f.Err != "" {
		t.Fatalf("after recovery: %+v", f)
	}
}

// TestStalledSocketFocusProbe: the network silently stops delivering; a
// terminal focus probes the socket, and a probe unanswered for 3 s drops it
// and reconnects.
func TestStalledSocketFocusProbe(t *testing.T) {
	h := startHost(t, host.Options{})
	sid := createSession(t, h.URL(), h.Token(), "stall")
	p := newFaultProxy(t, h.Addr(), 5)
	c := fastClient(t, Options{URL: p.URL(), Token: h.Token(), SessionID: sid})
	waitFor(t, c.Client, "live", isLive)
	// A healthy probe keeps the socket.
	c.Focus()
	time.Sleep(10 * time.Millisecond)
	before := p.Accepted()
	p.StallAll()
	cid := c.Submit("sent into a stalled socket")
	c.Focus()
	waitFor(t, c.Client, "reconnected after the probe", func(s Picture) bool { return p.Accepted() > before })
	settle(t, p, c, h, sid, []string{cid})
}

// TestDurableHostRestart: the host dies during a turn and restarts on the
// same data directory; the client resumes and receives the host-death
// terminals as ordinary durable events.
func TestDurableHostRestart(t *testing.T) {
	dir := t.TempDir()
	h := startHost(t, host.Options{DataDir: dir, Pace: 5 * time.Millisecond})
	sid := createSession(t, h.URL(), h.Token(), "restart")
	p := newFaultProxy(t, h.Addr(), 6)
	c := fastClient(t, Options{URL: p.URL(), Token: h.Token(), SessionID: sid, Deltas: true})
	waitFor(t, c.Client, "live", isLive)
	done := c.Submit("a first prompt that completes")
	waitFor(t, c.Client, "first turn done", func(s Picture) bool { return idle(s) && userMessages(s.View)[done] == 1 })
	slow := c.Submit("slow: keep running")
	waitFor(t, c.Client, "slow turn streaming", func(s Picture) bool {
		for _, it := range s.View.Items {
			if it.Kind == model.KindAgentMessage && it.IsOpen() && it.Text() != "" {
				return true
			}
		}
		return false
	})
	queued := c.Submit("queued behind the first")
	waitFor(t, c.Client, "queued", func(s Picture) bool { return len(s.View.QueuedTurns) == 1 })
	// The network goes first, then the host: the client sees neither the
	// shutdown's terminals nor the close.
	p.Refuse(true)
	p.KillAll()
	waitFor(t, c.Client, "reconnecting", func(s Picture) bool { return s.Freshness.State == Reconnecting })
	stopped := activeTurnID(c.Current().View)
	h.Close()
	h2 := startHost(t, host.Options{DataDir: dir, Pace: 5 * time.Millisecond})
	p.SetTarget(h2.Addr())
	p.Refuse(false)
	// The queued turn runs once the host is back; the slow one ended.
	s := waitFor(t, c.Client, "the slow turn's terminal", func(s Picture) bool {
		return isLive(s) && activeTurnID(s.View) != stopped
	})
	for _, it := range s.View.Items {
		if it.TurnID == stopped && it.IsOpen() {
			t.Fatalf("item %s of the stopped turn is still open after the restart", it.ID)
		}
	}
	settle(t, p, c, h2, sid, []string{done, slow, queued})
}

// TestEphemeralHostDeath: an ephemeral host dies; the replacement does not
// know the session, so the client shows its open items as terminal-unknown
// and reports the session as unknown.
func TestEphemeralHostDeath(t *testing.T) {
	dir := t.TempDir() // an ephemeral host keeps only its token there
	h := startHost(t, host.Options{Ephemeral: true, DataDir: dir, Pace: 5 * time.Millisecond})
	sid := createSession(t, h.URL(), h.Token(), "ephemeral")
	p := newFaultProxy(t, h.Addr(), 7)
	c := fastClient(t, Options{URL: p.URL(), Token: h.Token(), SessionID: sid, Deltas: true})
	waitFor(t, c.Client, "live", func(s Picture) bool { return isLive(s) && s.Durability == "ephemeral" })
	c.Submit("slow: stream for ever")
	waitFor(t, c.Client, "open item", func(s Picture) bool {
		for _, it := range s.View.Items {
			if it.IsOpen() && it.Kind == model.KindAgentMessage && it.Text() != "" {
				return true
			}
		}
		return false
	})
	p.Refuse(true)
	p.KillAll()
	h.Close()
	h2 := startHost(t, host.Options{Ephemeral: true, DataDir: dir, Pace: 5 * time.Millisecond})
	p.SetTarget(h2.Addr())
	p.Refuse(false)
	s := waitFor(t, c.Client, "error state", func(s Picture) bool { return s.Freshness.State == Error })
	if s.Freshness.Reason != ReasonNoSession {
		t.Fatalf("freshness %+v, want an unknown-session error", s.Freshness)
	}
	open, unknown := 0, 0
	for _, it := range s.View.Items {
		if it.TerminalUnknown {
			unknown++
		} else if it.IsOpen() {
			open++
		}
	}
	if unknown == 0 || open != 0 {
		t.Fatalf("after the ephemeral host died: %d terminal-unknown, %d still open", unknown, open)
	}
}

// ActiveTurnID is a helper on the view for tests.
func activeTurnID(v *model.View) string {
	if v.ActiveTurn == nil {
		return ""
	}
	return v.ActiveTurn.TurnID
}

// TestSilentConnectionIsDead: a connection that hears nothing (no frame, no
// ping) for the liveness bound is dead, without any focus; the client
// reconnects on its own. The bound is shortened from 45 s for the test.
func TestSilentConnectionIsDead(t *testing.T) {
	h := startHost(t, host.Options{})
	sid := createSession(t, h.URL(), h.Token(), "silence")
	p := newFaultProxy(t, h.Addr(), 8)
	c, err := New(Options{URL: p.URL(), Token: h.Token(), SessionID: sid, CacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	c.loop.timeScale, c.loop.deadAfter = 0.02, 2*time.Second
	ctx, cancel := context.WithCancel(context.Background())
	r := &runningClient{Client: c, cancel: cancel, done: make(chan struct{})}
	go func() { defer close(r.done); _ = c.Run(ctx) }()
	t.Cleanup(r.Stop)
	waitFor(t, c, "live", isLive)
	before := p.Accepted()
	p.StallAll()
	cid := c.Submit("into the silence")
	waitFor(t, c, "reconnected after the silence", func(Picture) bool { return p.Accepted() > before })
	settle(t, p, r, h, sid, []string{cid})
}
