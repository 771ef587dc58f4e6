package tui

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

// bulkAgent records n completed agent messages, "bulk item 0" first.
type bulkAgent struct{ n int }

func (bulkAgent) Launch(string) error { return nil }

func (a bulkAgent) Run(_ context.Context, t *host.Turn) error {
	for i := range a.n {
		if _, err := t.RecordItem(model.KindAgentMessage, model.StatusCompleted,
			map[string]any{"text": "bulk item " + strconv.Itoa(i)}); err != nil {
			return err
		}
	}
	return nil
}

// longHostSession starts a real host on loopback whose one session holds
// a prompt and n agent messages, and returns the options of a client
// following it.
func longHostSession(tb testing.TB, n int) sync.Options {
	tb.Helper()
	h := hosttest.Start(tb, host.Options{Ephemeral: true, AgentImpl: bulkAgent{n: n}})
	rc := hosttest.Dial(tb, h)
	var created struct {
		SessionID string `json:"sessionId"`
	}
	rc.MustCall(tb, "session/create", map[string]any{"title": "long"}, &created)
	rc.Close()
	o := sync.Options{URL: h.URL(), Token: h.Token(), SessionID: created.SessionID, CacheDir: "-"}
	c, stop := runSource(tb, o)
	cid := c.Submit("make history")
	waitSource(tb, c, "the history made", func(p sync.Picture) bool {
		_, settled := c.Settlement(cid)
		return settled && p.View.ActiveTurn == nil && len(p.View.QueuedTurns) == 0
	})
	stop()
	return o
}

// runSource runs a real client; stop (also run when the test ends) stops
// it and waits for it.
func runSource(tb testing.TB, o sync.Options) (c *sync.Client, stop func()) {
	tb.Helper()
	c, err := sync.New(o)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = c.Run(ctx)
	}()
	stop = func() { cancel(); <-done }
	tb.Cleanup(stop)
	return c, stop
}

// waitSource waits until cond holds for the client's picture (a safety
// net of a minute against hangs, not a time limit on the work).
func waitSource(tb testing.TB, c *sync.Client, what string, cond func(sync.Picture) bool) sync.Picture {
	tb.Helper()
	deadline := time.After(time.Minute)
	for {
		if p := c.Current(); cond(p) {
			return p
		}
		select {
		case <-c.Updates():
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			tb.Fatalf("waiting for %s: it never came", what)
		}
	}
}

// paint waits for the client's next publications and lays the screen out
// (as the frame timer would) until cond holds for the model.
func paint(tb testing.TB, d *driver, c *sync.Client, what string, cond func() bool) {
	tb.Helper()
	deadline := time.After(time.Minute)
	for d.pull(); !cond(); d.pull() {
		select {
		case <-c.Updates():
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			tb.Fatalf("waiting for %s on screen: it never came:\n%s", what, d.screen())
		}
	}
}

// fullFold is every item id of the session, as a client that folds the
// whole durable history (Replay) holds it.
func fullFold(t *testing.T, o sync.Options) []string {
	o.Replay, o.PageLimit = true, 1000
	c, stop := runSource(t, o)
	p := waitSource(t, c, "the replay", func(p sync.Picture) bool { return p.Freshness.State == sync.Live })
	defer stop()
	ids := make([]string, len(p.View.Items))
	for i, it := range p.View.Items {
		ids[i] = it.ID
	}
	return ids
}

// checkRows asserts that the transcript's rows are the session's first
// items, maybe the hole, and its last items: nothing twice, nothing
// skipped on either side of the hole.
func checkRows(t *testing.T, d *driver, want []string) {
	t.Helper()
	ids := rowIDs(d)
	top, bottom := ids, []string(nil)
	if i := slices.Index(ids, "hole"); i >= 0 {
		top, bottom = ids[:i], ids[i+1:]
	}
	if len(top)+len(bottom) > len(want) || !slices.Equal(top, want[:len(top)]) ||
		!slices.Equal(bottom, want[len(want)-len(bottom):]) {
		t.Fatalf("the rows are not the session's first %d items, the hole and its last %d", len(top), len(bottom))
	}
}

// lineOfItem is the screen line showing exactly "bulk item n", or -1.
func lineOfItem(d *driver, text string) int {
	re := regexp.MustCompile(regexp.QuoteMeta(text) + `\b`)
	for i, l := range d.lines() {
		if re.MatchString(l) {
			return i
		}
	}
	return -1
}

// Home on a real host's 5,000-item session shows its first item; scrolling
// down from there pages forward through the hole until the start window
// joins the held range, with the rows on screen kept in place at every
// page; then the rows are exactly the full fold's.
func TestHomeReachesTheStartOfALongSessionOnARealHost(t *testing.T) {
	o := longHostSession(t, 5000)
	want := fullFold(t, o)
	c, _ := runSource(t, o)
	waitSource(t, c, "live", func(p sync.Picture) bool { return p.Freshness.State == sync.Live && p.View.HasOlder })
	d := newDriver(t, 100, 60, Options{Source: c})
	d.keys("home")
	paint(t, d, c, "the first item", func() bool { return d.lineOf("make history") >= 0 })
	if ids := rowIDs(d); ids[0] != want[0] || d.lineOf("beginning of session") != 0 {
		t.Fatalf("home shows %v first, want the session's first item %s:\n%s", ids[:1], want[0], d.screen())
	}
	checkRows(t, d, want)
	pages := 0
	for c.Current().Start != nil {
		if pages > 200 {
			t.Fatal("the start window never joined the held range")
		}
		d.keys("pgdown")
		checkRows(t, d, want)
		if !d.m.tr.showsHole() {
			continue
		}
		// The hole is on screen: the page asked for comes, and what the
		// user looks at stays where it is.
		first, _, _ := d.m.tr.visibleRows()
		row := d.m.tr.rows()[first].Item
		line := lineOfItem(d, row.Text())
		before := len(d.m.start.Items) // what the screen was laid out from
		waitSource(t, c, "the next page", func(p sync.Picture) bool {
			return !p.StartLoading && (p.Start == nil || len(p.Start.Items) > before)
		})
		d.pull()
		pages++
		if got := lineOfItem(d, row.Text()); got != line || line < 0 {
			t.Fatalf("page %d: %q moved from line %d to %d:\n%s", pages, row.Text(), line, got, d.screen())
		}
		checkRows(t, d, want)
	}
	if ids := rowIDs(d); !slices.Equal(ids, want) {
		t.Fatalf("after the join the transcript holds %d rows, want the full fold's %d", len(ids), len(want))
	}
	if pages < 40 {
		t.Fatalf("the walk took %d pages: the test did not page through the hole", pages)
	}
	d.keys("end")
	d.wantScreen("bulk item 4999")
}

// BenchmarkHomeToFirstItemPainted: a UI on a real client holding the
// newest 200 items of a 100,000-item session on a loopback host; Home is
// pressed and the frame is laid out again on every publication until the
// session's first item is on screen. Reported: time from the key to that
// frame (the target is 200 ms).
func BenchmarkHomeToFirstItemPainted(b *testing.B) {
	o := longHostSession(b, 100_000)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		c, stop := runSource(b, o)
		waitSource(b, c, "live", func(p sync.Picture) bool { return p.Freshness.State == sync.Live && p.View.HasOlder })
		d := newDriver(b, 120, 40, Options{Source: c})
		b.StartTimer()
		d.keys("home")
		paint(b, d, c, "the first item", func() bool { return d.lineOf("make history") >= 0 })
		b.StopTimer()
		stop()
		b.StartTimer()
	}
}
