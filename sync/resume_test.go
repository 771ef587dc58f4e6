package sync

import (
	"context"
	"encoding/json"
	gosync "sync"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// runPrompts submits prompts through a client and waits until all ran.
func runPrompts(t *testing.T, c *runningClient, prompts ...string) {
	t.Helper()
	var cids []string
	for _, p := range prompts {
		cids = append(cids, c.Submit(p))
	}
	waitFor(t, c.Client, "prompts done", func(s Picture) bool {
		n := userMessages(s.View)
		for _, cid := range cids {
			if n[cid] != 1 {
				return false
			}
		}
		return idle(s)
	})
}

// TestLoadOlderPagesHistory: a bounded snapshot tail, then one before page
// per request until the history start; the result is the whole fold.
func TestLoadOlderPagesHistory(t *testing.T) {
	h := startHost(t, host.Options{})
	sid := createSession(t, h.URL(), h.Token(), "history")
	w := fastClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid})
	runPrompts(t, w, "one", "two", "three", "four", "five")
	total := len(w.Current().View.Items)

	c := fastClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid, SubscribeLimit: 4, OlderLimit: 3})
	s := waitFor(t, c.Client, "live tail", isLive)
	if len(s.View.Items) != 4 || !s.View.HasOlder {
		t.Fatalf("tail: %d items, hasOlder %v", len(s.View.Items), s.View.HasOlder)
	}
	for pages := 1; s.View.HasOlder; pages++ {
		before := len(s.View.Items)
		c.LoadOlder()
		c.LoadOlder() // a second request while one is in flight is a no-op
		s = waitFor(t, c.Client, "older page", func(s Picture) bool { return !s.HistoryLoading && len(s.View.Items) > before })
		if pages > total {
			t.Fatal("history never ends")
		}
	}
	if len(s.View.Items) != total {
		t.Fatalf("%d items after paging, want %d", len(s.View.Items), total)
	}
	sameAsHost(t, c.Client, h.URL(), h.Token(), sid)
	if c.stats.staleBefore.Load() != 0 {
		t.Fatal("an adjacent page was judged stale")
	}
}

// TestReplicaCachePaintsThenResumes: a replica paints before the network
// answers, then the client resumes from its cursor (suffix delivery) and
// ends equal to the host.
func TestReplicaCachePaintsThenResumes(t *testing.T) {
	h := startHost(t, host.Options{})
	sid := createSession(t, h.URL(), h.Token(), "replica")
	dir := t.TempDir()
	a := fastClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid, CacheDir: dir})
	runPrompts(t, a, "before the restart of the client")
	held := len(a.Current().View.Items)
	a.Stop() // writes the replica

	other := fastClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid})
	runPrompts(t, other, "while the client was away")

	b, err := New(Options{URL: h.URL(), Token: h.Token(), SessionID: sid, CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	s := b.Current()
	if !s.CachePainted || len(s.View.Items) != held || s.Freshness.State != Connecting {
		t.Fatalf("before Run: painted %v, %d items (want %d), %s", s.CachePainted, len(s.View.Items), held, s.Freshness.State)
	}
	rb := &runningClient{Client: b, done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	rb.cancel = cancel
	go func() { defer close(rb.done); _ = b.Run(ctx) }()
	t.Cleanup(rb.Stop)
	s = waitFor(t, b, "caught up", func(s Picture) bool { return idle(s) && len(s.View.Items) > held })
	if s.CachePainted {
		t.Fatal("still marked as painted from the cache after catching up")
	}
	if b.stats.suffixes.Load() != 1 || b.stats.snapshots.Load() != 0 {
		t.Fatalf("resume used %d suffix and %d snapshot deliveries, want a suffix", b.stats.suffixes.Load(), b.stats.snapshots.Load())
	}
	sameAsHost(t, b, h.URL(), h.Token(), sid)
}

// TestDisplayOnlyReplicaGrantsNoAuthority: a replica written while an item
// streamed paints, but the client subscribes without a cursor.
func TestDisplayOnlyReplicaGrantsNoAuthority(t *testing.T) {
	h := startHost(t, host.Options{Pace: 2 * time.Millisecond})
	sid := createSession(t, h.URL(), h.Token(), "tail")
	dir := t.TempDir()
	a := fastClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid, CacheDir: dir, Deltas: true})
	waitFor(t, a.Client, "live", isLive)
	a.Submit("slow: stream")
	waitFor(t, a.Client, "open item with text", func(s Picture) bool {
		for _, it := range s.View.Items {
			if it.IsOpen() && it.Kind == model.KindAgentMessage && it.Text() != "" {
				return true
			}
		}
		return false
	})
	a.Stop()
	b := fastClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid, CacheDir: dir, Deltas: true})
	waitFor(t, b.Client, "live", isLive)
	if b.stats.snapshots.Load() != 1 || b.stats.suffixes.Load() != 0 {
		t.Fatalf("a display-only replica resumed from its cursor (%d suffix deliveries)", b.stats.suffixes.Load())
	}
	b.Interrupt()
	s := waitFor(t, b.Client, "idle", idle)
	checkTranscript(t, s.View)
	sameAsHost(t, b.Client, h.URL(), h.Token(), sid)
}

// TestReplayFoldsEveryEvent: in Replay mode the client folds the whole
// durable history event by event (OnEvent sees each once, in seq order),
// then live events, and ends equal to the host.
func TestReplayFoldsEveryEvent(t *testing.T) {
	h := startHost(t, host.Options{DemoSession: true})
	sid := h.DefaultSessionID()
	var mu gosync.Mutex
	var seqs []int64
	c := fastClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid, Replay: true, PageLimit: 7, Deltas: true,
		OnEvent: func(ev *model.Event) {
			mu.Lock()
			seqs = append(seqs, ev.Seq)
			mu.Unlock()
		}})
	waitFor(t, c.Client, "live", isLive)
	runPrompts(t, c, "and one more, live")
	sameAsHost(t, c.Client, h.URL(), h.Token(), sid)

	// Every durable event of the journal was folded exactly once, in order.
	r := dialRaw(t, h.URL(), h.Token())
	defer r.close()
	var durable []int64
	cursor := model.FormatCursor(sid, 0)
	for {
		var pr model.Page
		if err := json.Unmarshal(r.call("view/page", map[string]any{"sessionId": sid, "direction": "after", "cursor": cursor, "limit": 1000}), &pr); err != nil {
			t.Fatal(err)
		}
		for _, el := range pr.Events {
			ev, err := model.DecodeNotification(el.Method, el.Params)
			if err != nil {
				t.Fatal(err)
			}
			durable = append(durable, ev.Seq)
		}
		if !pr.HasNewer {
			break
		}
		cursor = pr.EndCursor
	}
	mu.Lock()
	defer mu.Unlock()
	seen := map[int64]bool{}
	for i, s := range seqs {
		if seen[s] || (i > 0 && s <= seqs[i-1]) {
			t.Fatalf("event seq %d folded twice or out of order", s)
		}
		seen[s] = true
	}
	for _, s := range durable {
		if !seen[s] {
			t.Fatalf("durable event %d never folded", s)
		}
	}
	if c.stats.afterPages.Load() < 2 {
		t.Fatalf("history came in %d pages", c.stats.afterPages.Load())
	}
}
