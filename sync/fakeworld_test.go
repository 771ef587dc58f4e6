package sync

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	gosync "sync"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// A fake world for the loop: a clock that moves only when the test says,
// and connections the test plays the host on. No socket, no wall clock:
// the alarms' effects are asserted at the exact times they are due.

// fakeClock is a clock whose time moves only by Advance.
type fakeClock struct {
	mu     gosync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	clk    *fakeClock
	at     time.Time
	active bool
	ch     chan time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) NewTimer(d time.Duration) clockTimer {
	t := &fakeTimer{clk: c, ch: make(chan time.Time, 1)}
	c.mu.Lock()
	c.timers = append(c.timers, t)
	c.mu.Unlock()
	t.Reset(d)
	return t
}

// Advance moves the time on by d and rings the timers then due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	for _, t := range c.timers {
		t.ringIfDue()
	}
}

func (t *fakeTimer) Chan() <-chan time.Time { return t.ch }

// ringIfDue rings an active timer whose time has come (clk.mu held).
func (t *fakeTimer) ringIfDue() {
	if t.active && !t.at.After(t.clk.now) {
		t.active = false
		t.ch <- t.clk.now
	}
}

func (t *fakeTimer) Stop() bool {
	t.clk.mu.Lock()
	defer t.clk.mu.Unlock()
	was := t.active
	t.active = false
	select {
	case <-t.ch:
	default:
	}
	return was
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	t.clk.mu.Lock()
	defer t.clk.mu.Unlock()
	was := t.active
	select {
	case <-t.ch:
	default:
	}
	t.at, t.active = t.clk.now.Add(d), true
	t.ringIfDue()
	return was
}

// fakeConn is a connection whose host is the test.
type fakeConn struct {
	t      *testing.T
	frames chan []byte // host -> client
	sent   chan []byte // client -> host
	dead   chan struct{}
	once   gosync.Once
}

func (c *fakeConn) Frames() <-chan []byte { return c.frames }
func (c *fakeConn) Dead() <-chan struct{} { return c.dead }
func (c *fakeConn) Err() error            { return errors.New("closed by the test") }
func (c *fakeConn) Close()                { c.once.Do(func() { close(c.dead) }) }

func (c *fakeConn) Send(b []byte) {
	select {
	case c.sent <- b:
	default:
		c.t.Errorf("the client sent more than the test read: %s", b)
	}
}

func (c *fakeConn) CloseAfter(last []byte) {
	c.Send(last)
	c.Close()
}

// expect reads the client's next request and checks its method.
func (c *fakeConn) expect(method string) (id int64, params json.RawMessage) {
	c.t.Helper()
	select {
	case b := <-c.sent:
		var r struct {
			ID     int64           `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(b, &r); err != nil || r.Method != method {
			c.t.Fatalf("want a %s request, got %s (%v)", method, b, err)
		}
		return r.ID, r.Params
	case <-time.After(waitTimeout):
		c.t.Fatalf("no %s request", method)
	}
	return 0, nil
}

func (c *fakeConn) reply(id int64, result string) {
	c.frames <- fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":%s}`, id, result)
}

// fakeWorld runs a client on a fake clock and fake connections.
type fakeWorld struct {
	t     *testing.T
	clk   *fakeClock
	c     *Client
	dials chan *fakeConn
}

func newFakeWorld(t *testing.T) *fakeWorld {
	t.Helper()
	w := &fakeWorld{t: t, clk: &fakeClock{now: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}, dials: make(chan *fakeConn, 8)}
	c, err := New(Options{URL: "127.0.0.1:1", Token: "x", SessionID: "s1", CacheDir: "-", Now: w.clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	c.loop.clock = w.clk
	c.loop.dial = func(context.Context) (conn, error) {
		fc := &fakeConn{t: t, frames: make(chan []byte, 64), sent: make(chan []byte, 64), dead: make(chan struct{})}
		w.dials <- fc
		return fc, nil
	}
	w.c = c
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = c.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return w
}

// nextConn waits for the client's next dial.
func (w *fakeWorld) nextConn() *fakeConn {
	w.t.Helper()
	select {
	case fc := <-w.dials:
		return fc
	case <-time.After(waitTimeout):
		w.t.Fatal("the client did not dial")
	}
	return nil
}

// live answers initialize and subscribe on fc with a snapshot at seq 5.
func (w *fakeWorld) live(fc *fakeConn) {
	w.t.Helper()
	id, _ := fc.expect("initialize")
	fc.reply(id, `{"protocolVersion":1,"durability":"durable"}`)
	id, _ = fc.expect("session/subscribe")
	fc.reply(id, `{"epoch":"e1","head":"v:s1:5","delivery":"snapshot","snapshot":{"cursor":"v:s1:5","durableCursor":"v:s1:5","items":[]}}`)
	waitFor(w.t, w.c, "live", isLive)
}

func reconnecting(s Picture) bool { return s.Freshness.State == Reconnecting }

// A catch-up page left unanswered drops the link when the watchdog is
// due, and the next attempt comes when the backoff says, not before.
func TestFakeWorldWatchdogDropsAStalledCatchUp(t *testing.T) {
	w := newFakeWorld(t)
	fc := w.nextConn()
	w.live(fc)
	// A durable event after seq 6, which the client never saw: a gap.
	fc.frames <- []byte(itemFrame("item/completed", "s1", 7, 6, "i7", "completed", 1, "x"))
	fc.expect("view/page")
	waitFor(t, w.c, "updating", func(s Picture) bool { return s.Freshness.State == Updating })

	w.clk.Advance(pageWatchdog - time.Millisecond)
	if w.onLoop(func(l *loopState) bool { return l.link == nil }) {
		t.Fatal("the link dropped before the watchdog was due")
	}
	w.clk.Advance(time.Millisecond)
	s := waitFor(t, w.c, "reconnecting", reconnecting)
	f := s.Freshness
	if f.Err != "catch-up made no progress for 15 s" || f.Reason != ReasonUnreachable || f.Attempt != 1 {
		t.Fatalf("freshness after the watchdog: %+v", f)
	}
	if want := w.clk.Now().Add(backoffBase); !f.NextAttempt.Equal(want) {
		t.Fatalf("next attempt at %v, want %v (1 s of backoff)", f.NextAttempt, want)
	}
	if dialing, armed := w.onLoop(func(l *loopState) bool { return l.dialCh != nil }), w.onLoop(func(l *loopState) bool { return l.attempt.armed() }); dialing || !armed {
		t.Fatalf("before the backoff is over: dialling %v, attempt armed %v", dialing, armed)
	}
	w.clk.Advance(backoffBase - time.Millisecond)
	if w.onLoop(func(l *loopState) bool { return l.dialCh != nil }) {
		t.Fatal("the client dialled before its backoff was over")
	}
	w.clk.Advance(time.Millisecond)
	w.live(w.nextConn())
}

// A focus probe that gets no answer within probeTimeout redials at once,
// without waiting for a backoff.
func TestFakeWorldUnansweredProbeRedialsAtOnce(t *testing.T) {
	w := newFakeWorld(t)
	fc := w.nextConn()
	w.live(fc)
	w.c.Focus()
	fc.expect("session/list")
	w.clk.Advance(probeTimeout - time.Millisecond)
	if w.onLoop(func(l *loopState) bool { return l.link == nil }) {
		t.Fatal("the link dropped before the probe timed out")
	}
	w.clk.Advance(time.Millisecond)
	fc2 := w.nextConn() // the clock did not move past the probe
	select {
	case <-fc.dead:
	default:
		t.Fatal("the unanswered link was not closed")
	}
	w.live(fc2)
	if got := w.c.Current().Freshness; got.State != Live || got.Err != "" {
		t.Fatalf("after the redial: %+v", got)
	}
	// An answered probe keeps the link: the probe's alarm is stopped.
	w.c.Focus()
	id, _ := fc2.expect("session/list")
	fc2.reply(id, `{"sessions":[]}`)
	w.until("the probe's answer is taken", func(l *loopState) bool { return l.link != nil && !l.link.probe.armed() })
	w.clk.Advance(probeTimeout)
	if w.onLoop(func(l *loopState) bool { return l.link == nil || l.dialCh != nil }) {
		t.Fatal("an answered probe dropped the link")
	}
}

// onLoop runs fn on the client's goroutine and returns its answer.
func (w *fakeWorld) onLoop(fn func(l *loopState) bool) bool {
	w.t.Helper()
	var got bool
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	if err := w.c.Inspect(ctx, func(*model.State) { got = fn(w.c.loop) }); err != nil {
		w.t.Fatalf("Inspect: %v", err)
	}
	return got
}

// until asks the loop until cond holds.
func (w *fakeWorld) until(what string, cond func(l *loopState) bool) {
	w.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !w.onLoop(cond) {
		if time.Now().After(deadline) {
			w.t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
