package sync

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// streamAgent records n items, each streamed as deltas deltas before it
// completes, so item positions lie deltas+2 seqs apart; each item's text
// is size bytes once complete.
type streamAgent struct{ n, deltas, size int }

func (streamAgent) Launch(string) error { return nil }

func (a streamAgent) Run(_ context.Context, t *host.Turn) error {
	for i := range a.n {
		id, err := t.StartItem(model.KindAgentMessage, model.StatusInProgress, map[string]any{"text": ""})
		if err != nil {
			return err
		}
		for range a.deltas {
			if err := t.Delta(id, "text", "."); err != nil {
				return err
			}
		}
		text := strconv.Itoa(i) + " " + strings.Repeat("x", a.size)
		if err := t.CompleteItem(id, model.StatusCompleted, map[string]any{"text": text}); err != nil {
			return err
		}
	}
	return nil
}

// sessionWithHistory starts a host whose agent makes the history of one
// prompt, and runs that prompt to its end.
func sessionWithHistory(t testing.TB, agent host.Agent) (url, token, sid string) {
	t.Helper()
	h := startHost(t, host.Options{Ephemeral: true, AgentImpl: agent})
	sid = h.DefaultSessionID()
	if sid == "" {
		sid = createSession(t, h.URL(), h.Token(), "history")
	}
	c := runClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid})
	cid := c.Submit("make history")
	waitFor(t, c.Client, "history made", func(s Picture) bool {
		_, settled := c.Settlement(cid)
		return settled && idle(s)
	})
	c.Stop()
	return h.URL(), h.Token(), sid
}

// hostItemIDs is every item of the session in transcript order, as the
// host's own `before` pages give them.
func hostItemIDs(t testing.TB, url, token, sid string) []string {
	t.Helper()
	r := dialRaw(t, url, token)
	defer r.close()
	var sub subscribeResult
	if err := json.Unmarshal(r.call("session/subscribe", map[string]any{"sessionId": sid, "limit": 1}), &sub); err != nil {
		t.Fatal(err)
	}
	var ids []string
	cursor := ""
	for {
		p := map[string]any{"sessionId": sid, "epoch": sub.Epoch, "direction": "before", "limit": 1000}
		if cursor != "" {
			p["cursor"] = cursor
		}
		var page model.Page
		if err := json.Unmarshal(r.call("view/page", p), &page); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, el := range page.Events {
			ev, err := model.DecodeNotification(el.Method, el.Params)
			if err != nil || ev.Item == nil {
				t.Fatalf("host page element: %v", err)
			}
			got = append(got, ev.Item.ID)
		}
		ids = append(got, ids...)
		if !page.HasOlder || len(page.Events) == 0 {
			return ids
		}
		cursor = page.StartCursor
	}
}

func viewIDs(v *model.View) []string {
	ids := make([]string, len(v.Items))
	for i, it := range v.Items {
		ids[i] = it.ID
	}
	return ids
}

// walkFromStart jumps to the start, checks the first page, then pages
// forward until the window joins the held range, checking after each
// page that the window is the session's first items with no hole. It
// returns how many pages the walk took.
func walkFromStart(t *testing.T, c *runningClient, want []string) int {
	t.Helper()
	if s := c.Current(); !s.View.HasOlder || s.Start != nil {
		t.Fatalf("before LoadStart: hasOlder %v, start %v", s.View.HasOlder, s.Start != nil)
	}
	c.LoadStart()
	s := waitFor(t, c.Client, "the start window", func(s Picture) bool {
		return c.stats.startPages.Load() > 0 && !s.StartLoading
	})
	if s.Start == nil || s.Start.Items[0].ID != want[0] {
		t.Fatalf("the start window does not begin at the session's first item %s", want[0])
	}
	return 1 + walkForward(t, c, s, want)
}

// walkForward pages the start window forward from s until it joins the
// held range (see walkFromStart) and returns how many pages it took.
func walkForward(t *testing.T, c *runningClient, s Picture, want []string) int {
	t.Helper()
	pages := 0
	for s.Start != nil {
		got := viewIDs(s.Start)
		if len(got) > len(want) || !slices.Equal(got, want[:len(got)]) {
			t.Fatalf("page %d: the start window is not the session's first %d items:\n got %v\nwant %v", pages, len(got), got, want[:min(len(got), len(want))])
		}
		folded := c.stats.startPages.Load()
		c.LoadForward()
		s = waitFor(t, c.Client, "the next page down", func(s Picture) bool {
			return s.Start == nil || c.stats.startPages.Load() > folded && !s.StartLoading
		})
		pages++
		if pages > 10_000 {
			t.Fatal("the start window never joined the held range")
		}
	}
	if s.View.HasOlder {
		t.Fatal("the window joined, but the held range still has older history")
	}
	if got := viewIDs(s.View); !slices.Equal(got, want) {
		t.Fatalf("after the join the held range is not the session:\n got %d items\nwant %d items", len(got), len(want))
	}
	return pages
}

// Home on a long session: the first page of the start window is the
// session's first items, and paging forward from there fills the hole
// down to the held range, which then holds the whole session.
func TestStartWindowDenseHistory(t *testing.T) {
	url, token, sid := sessionWithHistory(t, bulkAgent{n: 1200})
	want := hostItemIDs(t, url, token, sid)
	c := runClient(t, Options{URL: url, Token: token, SessionID: sid, SubscribeLimit: 200, OlderLimit: 100})
	waitFor(t, c.Client, "live", isLive)
	pages := walkFromStart(t, c, want)
	// About 1,000 positions lie between the start and the held range:
	// ten pages of 100, and one that joins.
	if pages < 10 || pages > 14 || c.stats.startCuts.Load() != 0 {
		t.Fatalf("the walk took %d pages, %d of them narrowed", pages, c.stats.startCuts.Load())
	}
	sameAsHostWhole(t, c, url, token, sid)
}

// Items far apart (many deltas between two items' positions): a page of
// 100 positions holds few items, some none; the walk still finds every
// item in order.
func TestStartWindowSparsePositions(t *testing.T) {
	url, token, sid := sessionWithHistory(t, streamAgent{n: 60, deltas: 30})
	want := hostItemIDs(t, url, token, sid)
	c := runClient(t, Options{URL: url, Token: token, SessionID: sid, SubscribeLimit: 10, OlderLimit: 100})
	waitFor(t, c.Client, "live", isLive)
	walkFromStart(t, c, want)
	sameAsHostWhole(t, c, url, token, sid)
}

// Items so large that a page of them passes the host's byte bound: the
// host keeps the newest of the page, the client sees that the page does
// not continue its window, and asks again at half the span.
func TestStartWindowLargeItemsNarrowThePage(t *testing.T) {
	url, token, sid := sessionWithHistory(t, streamAgent{n: 40, size: 60 << 10})
	want := hostItemIDs(t, url, token, sid)
	c := runClient(t, Options{URL: url, Token: token, SessionID: sid, SubscribeLimit: 5, OlderLimit: 100})
	waitFor(t, c.Client, "live", isLive)
	walkFromStart(t, c, want)
	if c.stats.startCuts.Load() == 0 {
		t.Fatal("no page passed the byte bound: the test does not test narrowing")
	}
	sameAsHostWhole(t, c, url, token, sid)
}

// sameAsHostWhole asserts that the client's fold equals the whole
// session as a client that folds every event from the start (Replay)
// holds it.
func sameAsHostWhole(t *testing.T, c *runningClient, url, token, sid string) {
	t.Helper()
	truth := runClient(t, Options{URL: url, Token: token, SessionID: sid, Replay: true, PageLimit: 1000})
	waitFor(t, truth.Client, "the replay caught up", isLive)
	if got, want := encode(t, c.Client), encode(t, truth.Client); string(got) != string(want) {
		t.Fatalf("client fold differs from the whole session's:\n got %s\nwant %s", clip(got), clip(want))
	}
	truth.Stop()
}

// BenchmarkStartOf100kSession: a live client that holds the newest 200
// items of a 100,000-item session jumps to its start (LoadStart) and
// publishes the session's first items. Reported: time from LoadStart to
// the published start window (the target is 200 ms), and its items.
func BenchmarkStartOf100kSession(b *testing.B) {
	url, token, sid := sessionWithHistory(b, bulkAgent{n: 100_000})
	b.ResetTimer()
	var items int
	for range b.N {
		b.StopTimer()
		c := runClient(b, Options{URL: url, Token: token, SessionID: sid})
		waitFor(b, c.Client, "live", isLive)
		b.StartTimer()
		c.LoadStart()
		s := waitFor(b, c.Client, "the start window", func(s Picture) bool {
			return c.stats.startPages.Load() > 0 && !s.StartLoading
		})
		b.StopTimer()
		items += len(s.Start.Items)
		c.Stop()
		b.StartTimer()
	}
	b.ReportMetric(float64(items)/float64(b.N), "items/op")
}

// lateAgent opens one item, records n more, then completes the first when
// release is closed: a live update of an item far older than the held
// range.
type lateAgent struct {
	n        int
	recorded chan struct{}
	release  chan struct{}
}

func (*lateAgent) Launch(string) error { return nil }

func (a *lateAgent) Run(ctx context.Context, t *host.Turn) error {
	first, err := t.StartItem(model.KindAgentMessage, model.StatusInProgress, map[string]any{"text": "working"})
	if err != nil {
		return err
	}
	for i := range a.n {
		if _, err := t.RecordItem(model.KindAgentMessage, model.StatusCompleted, map[string]any{"text": "item " + strconv.Itoa(i)}); err != nil {
			return err
		}
	}
	close(a.recorded)
	select {
	case <-a.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	return t.CompleteItem(first, model.StatusCompleted, map[string]any{"text": "done at last"})
}

// An item in the start window that ends while the window is shown: the
// held range leaves it out (it is older than its oldest item), the window
// shows its end, and the join keeps it.
func TestStartWindowFollowsALiveItem(t *testing.T) {
	agent := &lateAgent{n: 300, recorded: make(chan struct{}), release: make(chan struct{})}
	h := startHost(t, host.Options{Ephemeral: true, AgentImpl: agent})
	sid := createSession(t, h.URL(), h.Token(), "late")
	sender := runClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid})
	waitFor(t, sender.Client, "live", isLive)
	sender.Submit("start, record, finish")
	<-agent.recorded
	// A client that comes now holds the newest 50 items only.
	c := runClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid, SubscribeLimit: 50, OlderLimit: 100})
	waitFor(t, c.Client, "the newest items", func(s Picture) bool {
		return isLive(s) && len(s.View.Items) > 0 && s.View.Items[len(s.View.Items)-1].Text() == "item 299" && s.View.HasOlder
	})
	c.LoadStart()
	s := waitFor(t, c.Client, "the start window", func(s Picture) bool { return c.stats.startPages.Load() > 0 && !s.StartLoading })
	if len(s.Start.Items) < 2 || s.Start.Items[1].Status != model.StatusInProgress {
		t.Fatalf("the start window lacks the open item: %d items", len(s.Start.Items))
	}
	open := s.Start.Items[1].ID // after the prompt's userMessage
	close(agent.release)
	s = waitFor(t, c.Client, "the item's end in the window", func(s Picture) bool {
		return s.Start != nil && len(s.Start.Items) > 1 && s.Start.Items[1].Status == model.StatusCompleted && idle(s)
	})
	if s.Start.Items[1].ID != open || s.Start.Items[1].Text() != "done at last" {
		t.Fatalf("the window shows %s %q", s.Start.Items[1].ID, s.Start.Items[1].Text())
	}
	walkForward(t, c, s, hostItemIDs(t, h.URL(), h.Token(), sid))
	sameAsHostWhole(t, c, h.URL(), h.Token(), sid)
}

// Paging back from the held range (LoadOlder) until it meets the start
// window joins the two as paging forward does.
func TestStartWindowMeetsPagingBack(t *testing.T) {
	url, token, sid := sessionWithHistory(t, bulkAgent{n: 700})
	c := runClient(t, Options{URL: url, Token: token, SessionID: sid, SubscribeLimit: 200, OlderLimit: 100})
	waitFor(t, c.Client, "live", isLive)
	c.LoadStart()
	s := waitFor(t, c.Client, "the start window", func(s Picture) bool { return c.stats.startPages.Load() > 0 && !s.StartLoading })
	for pages := 0; s.Start != nil; pages++ {
		if pages > 20 {
			t.Fatal("paging back never met the start window")
		}
		held := len(s.View.Items)
		c.LoadOlder()
		s = waitFor(t, c.Client, "an older page", func(s Picture) bool { return len(s.View.Items) > held && !s.HistoryLoading })
	}
	if s.View.HasOlder {
		t.Fatal("the window joined, but the held range still has older history")
	}
	if got, want := viewIDs(s.View), hostItemIDs(t, url, token, sid); !slices.Equal(got, want) {
		t.Fatalf("after the join: %d items, want %d", len(got), len(want))
	}
	sameAsHostWhole(t, c, url, token, sid)
}
