package sync

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	gosync "sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/lookout-sh/lookout/model"
)

// hostileHost is a scripted host that breaks the protocol's bounds (docs/sync.md,
// "Bounds against a bad host"). It answers like a host whose session "s1" is
// empty (a snapshot at v:s1:0, empty pages) and, after each subscribe
// answer, runs its live script on that connection: whatever the test
// wants a bad host to send.
type hostileHost struct {
	srv *httptest.Server

	mu    gosync.Mutex
	dials []time.Time
	live  func(send func(string) error)
	list  string // the session/list result, every page ("" answers {}); %CURSOR% counts
	lists int
}

func newHostileHost(t testing.TB, live func(send func(string) error)) *hostileHost {
	t.Helper()
	h := &hostileHost{live: live}
	up := websocket.Upgrader{}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		h.mu.Lock()
		h.dials = append(h.dials, time.Now())
		live := h.live
		h.mu.Unlock()
		var wmu gosync.Mutex
		send := func(s string) error {
			wmu.Lock()
			defer wmu.Unlock()
			return ws.WriteMessage(websocket.TextMessage, []byte(s))
		}
		for {
			_, data, err := ws.ReadMessage()
			if err != nil {
				return
			}
			var req struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(data, &req) != nil {
				continue
			}
			result := `{}`
			switch req.Method {
			case "initialize":
				result = `{"serverInfo":{"name":"hostile"},"protocolVersion":1,"durability":"durable","features":{}}`
			case "session/subscribe":
				result = `{"epoch":"e1","head":"v:s1:0","delivery":"snapshot","snapshot":{"cursor":"v:s1:0","durableCursor":"v:s1:0","items":[],"hasOlder":false,"activeTurn":null,"queuedTurns":[],"pendingApprovals":[],"state":{}}}`
			case "session/list":
				h.mu.Lock()
				if h.list != "" {
					h.lists++ // a cursor that moves on every page
					result = strings.ReplaceAll(h.list, "%CURSOR%", fmt.Sprint(h.lists))
				}
				h.mu.Unlock()
			case "view/page":
				result = `{"epoch":"e1","events":[],"startCursor":"v:s1:0","endCursor":"v:s1:0","hasNewer":false,"hasOlder":false}`
			}
			if send(`{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":`+result+`}`) != nil {
				return
			}
			if req.Method == "session/subscribe" && live != nil {
				go live(send)
			}
		}
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hostileHost) URL() string { return "ws" + strings.TrimPrefix(h.srv.URL, "http") + "/v1/ws" }

// Dials is how many connections the host accepted, and dialsSince how
// many after t.
func (h *hostileHost) Dials() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.dials)
}

func (h *hostileHost) dialsSince(t time.Time) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, d := range h.dials {
		if d.After(t) {
			n++
		}
	}
	return n
}

func (h *hostileHost) setLive(live func(send func(string) error)) {
	h.mu.Lock()
	h.live = live
	h.mu.Unlock()
}

// notification is one session notification frame of "s1".
func notification(method string, seq int64, durable bool, params string) string {
	p := fmt.Sprintf(`"sessionId":"s1","viewCursor":"v:s1:%d"`, seq)
	if durable {
		if seq == 1 {
			p += `,"prevCursor":null`
		} else {
			p += fmt.Sprintf(`,"prevCursor":"v:s1:%d"`, seq-1)
		}
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":{%s,%s},"emittedAtMs":1}`, method, p, params)
}

func itemParams(id, status string, rev int64, text string) string {
	return fmt.Sprintf(`"item":{"itemId":%q,"kind":"agentMessage","turnId":"t1","revision":%d,"status":%q,"recordedAt":"2026-08-07T18:42:31Z","text":%q}`, id, rev, status, text)
}

func contextWithTimeout() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), waitTimeout)
}

// heapAfterGC is the live heap, measured after a collection.
func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func heldItems(t testing.TB, c *Client) (n int, dropped int, hasOlder bool) {
	t.Helper()
	ctx, cancel := contextWithTimeout()
	defer cancel()
	if err := c.Inspect(ctx, func(st *model.State) { n, dropped, hasOlder = st.Len(), st.Dropped(), st.HasOlder }); err != nil {
		t.Fatal(err)
	}
	return
}

// A host that sends 200,000 items. The client holds at most its item
// bound (the oldest are dropped and become history to page back in), and
// its heap stays bounded: before the bound, 200,000 items took over
// 200 MB here.
func TestHostileManyItemsStayBounded(t *testing.T) {
	const n = 200_000
	text := strings.Repeat("x", 200)
	h := newHostileHost(t, func(send func(string) error) {
		for i := int64(1); i <= n; i++ {
			if send(notification(model.MethodItemCompleted, i, true, itemParams(fmt.Sprintf("item-%07d", i), "completed", 1, text))) != nil {
				return
			}
		}
	})
	before := heapAfterGC()
	c := runClient(t, Options{URL: h.URL(), Token: "t", SessionID: "s1"})
	// 200,000 frames take a while under -race on a busy machine.
	deadline := time.After(5 * time.Minute)
	for c.Current().View.Cursor != n {
		select {
		case <-c.Updates():
		case <-deadline:
			t.Fatalf("folded up to seq %d of %d", c.Current().View.Cursor, n)
		}
	}
	held, dropped, hasOlder := heldItems(t, c.Client)
	grew := int64(heapAfterGC()) - int64(before)
	t.Logf("held %d items (%d dropped), heap grew %.1f MB", held, dropped, float64(grew)/(1<<20))
	if held > DefaultMaxItems || held+dropped != n || !hasOlder {
		t.Fatalf("holds %d items, dropped %d, hasOlder %v; want at most %d held, the rest dropped, older history", held, dropped, hasOlder, DefaultMaxItems)
	}
	if grew > 150<<20 {
		t.Fatalf("the heap grew %d MB holding %d items", grew>>20, held)
	}
	s := c.Current()
	if !s.View.HasOlder || s.View.Items[len(s.View.Items)-1].ID != fmt.Sprintf("item-%07d", n) {
		t.Fatal("the published view does not end at the newest item with older history before it")
	}
}

// 7a: a host that streams 54 MB of deltas into one item. The field stops
// at the client's bound, the item is marked cut, the cut is reported, and
// the heap does not hold the stream. OnEvent sees the cut once, on the
// delta that was cut, so a State folding what it sees is marked cut too.
func TestHostileDeltaFloodIsCut(t *testing.T) {
	chunk := strings.Repeat("0123456789abcdef", 256) // 4 KiB
	const total = 54 << 20
	h := newHostileHost(t, func(send func(string) error) {
		if send(notification(model.MethodItemStarted, 1, true, itemParams("flood", "inProgress", 1, ""))) != nil {
			return
		}
		seq := int64(1)
		for sent := 0; sent < total; sent += len(chunk) {
			seq++
			if send(notification(model.MethodItemDelta, seq, false, fmt.Sprintf(`"itemId":"flood","delta":%q`, chunk))) != nil {
				return
			}
		}
	})
	before := heapAfterGC()
	var printed atomic.Int64 // what a watch would print: OnEvent's delta text
	var mu gosync.Mutex
	var marks []*model.ItemCut
	seen := model.NewState("s1") // what an export folds
	c := runClient(t, Options{URL: h.URL(), Token: "t", SessionID: "s1", Deltas: true, OnEvent: func(ev *model.Event) {
		printed.Add(int64(len(ev.Delta)))
		mu.Lock()
		defer mu.Unlock()
		if ev.Cut != nil {
			marks = append(marks, ev.Cut)
		}
		if err := seen.Apply(ev); err != nil {
			t.Errorf("folding what OnEvent saw: %v", err)
		}
	}})
	s := waitFor(t, c.Client, "the flood folded", func(s Picture) bool { return s.View.Cursor == 1+total/int64(len(chunk)) })
	it := s.View.ItemByID("flood")
	if n := printed.Load(); n != int64(len(it.Text())) {
		t.Fatalf("OnEvent saw %d bytes of delta text; the fold kept %d", n, len(it.Text()))
	}
	mu.Lock()
	if len(marks) != 1 || marks[0].FieldBound != DefaultMaxFieldBytes || len(marks[0].Fields) != 1 || marks[0].Fields[0] != "text" {
		t.Fatalf("OnEvent saw cut marks %+v; want one, of text at %d", marks, DefaultMaxFieldBytes)
	}
	if folded := seen.Item("flood"); folded == nil || folded.Text() != it.Text() || folded.Cut == nil {
		t.Fatalf("a State folding OnEvent's events holds %+v, not the client's cut text", folded)
	}
	mu.Unlock()
	grew := int64(heapAfterGC()) - int64(before)
	t.Logf("text %d bytes, heap grew %.1f MB", len(it.Text()), float64(grew)/(1<<20))
	if len(it.Text()) > DefaultMaxFieldBytes || it.Cut == nil || it.Cut.FieldBound != DefaultMaxFieldBytes {
		t.Fatalf("text %d bytes, cut %+v; want at most %d, marked cut", len(it.Text()), it.Cut, DefaultMaxFieldBytes)
	}
	if !hasErr(s, string(model.ClientBound)) {
		t.Fatalf("the cut is not reported: %v", s.Errors)
	}
	if grew > 32<<20 {
		t.Fatalf("the heap grew %d MB", grew>>20)
	}
}

// 7c: the replica cache file is bounded in bytes. A range over the bound
// (here 400 items of 64 KiB, as a conforming host may send) is stored as a
// display-only tail of the newest items that fit, and the header says so;
// the next client paints that tail and subscribes without a cursor. A
// file over the bound is never read.
func TestCacheFileIsBounded(t *testing.T) {
	const n = 400
	text := strings.Repeat("y", 64<<10)
	h := newHostileHost(t, func(send func(string) error) {
		for i := int64(1); i <= n; i++ {
			if send(notification(model.MethodItemCompleted, i, true, itemParams(fmt.Sprintf("big-%03d", i), "completed", 1, text))) != nil {
				return
			}
		}
	})
	dir := t.TempDir()
	c := runClient(t, Options{URL: h.URL(), Token: "t", SessionID: "s1", CacheDir: dir})
	waitFor(t, c.Client, "every item folded", func(s Picture) bool { return s.View.Cursor == n && isLive(s) })
	c.Stop()
	path := cachePath(dir, c.URL(), "s1")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var hd replicaHeader
	if err := json.Unmarshal(data[:bytes.IndexByte(data, '\n')], &hd); err != nil {
		t.Fatal(err)
	}
	t.Logf("cache file %d bytes, %d items, authority %v, bounded %q", len(data), hd.Items, hd.Authority, hd.Bounded)
	if len(data) > DefaultCacheBytes || hd.Authority || hd.Bounded == "" || hd.Items == 0 || hd.Items >= n {
		t.Fatalf("cache file %d bytes (bound %d), %d items, authority %v, bounded %q", len(data), DefaultCacheBytes, hd.Items, hd.Authority, hd.Bounded)
	}

	// The next start paints the tail.
	h.setLive(nil)
	c2, err := New(Options{URL: h.URL(), Token: "t", SessionID: "s1", CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if s := c2.Current(); !s.CachePainted || len(s.View.Items) != hd.Items || !s.View.HasOlder {
		t.Fatalf("painted %v, %d items, hasOlder %v", s.CachePainted, len(s.View.Items), s.View.HasOlder)
	}
	if c2.loop.authority {
		t.Fatal("a display-only tail grants sync authority")
	}

	// A valid replica over the bound (an older client's, or planted) is
	// discarded unread.
	st := model.NewState("s1")
	st.Epoch = "e1"
	for i := int64(1); i <= 300; i++ {
		ev, err := model.DecodeFrame([]byte(notification(model.MethodItemCompleted, i, true, itemParams(fmt.Sprintf("big-%03d", i), "completed", 1, text))))
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	big, err := encodeReplica(replicaHeader{Host: c.URL(), SessionID: "s1", Epoch: "e1", Authority: true}, st.Snapshot(0))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, big, 0o600); err != nil {
		t.Fatal(err)
	}
	c3, err := New(Options{URL: h.URL(), Token: "t", SessionID: "s1", CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if s := c3.Current(); s.CachePainted || !hasErr(s, "too large") {
		t.Fatalf("a %d-byte replica was read: painted %v, errors %v", len(big), s.CachePainted, s.Errors)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the oversize replica was kept: %v", err)
	}
}

// 7d: a host that sends a frame over 4 MiB right after every catch-up.
// Each connection ends (1009) soon after it went live; a catch-up alone
// no longer starts the backoff over, so the attempts slow down to the
// ceiling instead of repeating every second. A connection that then stays
// live long enough starts the backoff over.
func TestHostileOversizeFrameBacksOff(t *testing.T) {
	oversize := `{"jsonrpc":"2.0","method":"heartbeat","params":{"pad":"` + strings.Repeat("z", 5<<20) + `"}}`
	h := newHostileHost(t, func(send func(string) error) { _ = send(oversize) })
	const scale = 0.02 // 1 s -> 20 ms; the 30 s ceiling and healthy time -> 600 ms
	c := runScaledClient(t, Options{URL: h.URL(), Token: "t", SessionID: "s1"}, scale)
	deadline := time.After(30 * time.Second)
	for s := c.Current(); s.Freshness.Attempt < 6; s = c.Current() {
		select {
		case <-c.Updates():
		case <-deadline:
			t.Fatalf("the backoff never grew past attempt %d after %d connections: each catch-up reset it", s.Freshness.Attempt, h.Dials())
		}
	}
	// At the ceiling the attempts come 600 ms apart: a few in 1.5 s, where
	// a backoff reset by every catch-up made one every 20 ms.
	from := time.Now()
	time.Sleep(1500 * time.Millisecond)
	if n := h.dialsSince(from); n > 6 {
		t.Fatalf("%d connections in 1.5 s at the backoff ceiling", n)
	}
	if s := c.Current(); s.Freshness.State != Reconnecting && s.Freshness.State != Updating && s.Freshness.State != Live {
		t.Fatalf("freshness %+v", s.Freshness)
	}

	// A connection that stays live past the healthy time starts over.
	h.setLive(func(send func(string) error) {
		time.Sleep(time.Second)
		_ = send(oversize)
	})
	deadline = time.After(30 * time.Second)
	for s := c.Current(); s.Freshness.State != Reconnecting || s.Freshness.Attempt != 1; s = c.Current() {
		select {
		case <-c.Updates():
		case <-deadline:
			t.Fatalf("the backoff did not start over after a healthy connection: %+v", s.Freshness)
		}
	}
}

// A host streaming 10 KiB items past the client's byte bound: the heap
// holds about the bound, not twice it (a held item used to keep its whole
// frame alive beside its decoded text).
func TestHostileLargeItemsHoldTheByteBoundInMemory(t *testing.T) {
	const n, bound = 6000, 32 << 20
	text := strings.Repeat("x", 10<<10)
	h := newHostileHost(t, func(send func(string) error) {
		for i := int64(1); i <= n; i++ {
			if send(notification(model.MethodItemCompleted, i, true, itemParams(fmt.Sprintf("item-%07d", i), "completed", 1, text))) != nil {
				return
			}
		}
	})
	before := heapAfterGC()
	c := runClient(t, Options{URL: h.URL(), Token: "t", SessionID: "s1", MaxBytes: bound})
	waitFor(t, c.Client, "every item folded", func(s Picture) bool { return s.View.Cursor == n })
	held, dropped, _ := heldItems(t, c.Client)
	grew := int64(heapAfterGC()) - int64(before)
	t.Logf("held %d items (%d dropped), heap grew %.1f MB for a %d MiB bound", held, dropped, float64(grew)/(1<<20), bound>>20)
	if dropped == 0 {
		t.Fatalf("nothing was dropped: the bound was never reached")
	}
	if grew > bound*3/2 {
		t.Fatalf("the heap grew %d MiB holding %d items under a %d MiB bound", grew>>20, held, bound>>20)
	}
}
