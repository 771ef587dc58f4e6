package sync

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// bulkAgent records n single-record items per turn as fast as the host
// takes them.
type bulkAgent struct{ n int }

func (bulkAgent) Launch(string) error { return nil }

func (a bulkAgent) Run(ctx context.Context, t *host.Turn) error {
	for i := range a.n {
		if _, err := t.RecordItem(model.KindAgentMessage, model.StatusCompleted,
			map[string]any{"text": "bulk item " + strconv.Itoa(i)}); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkCatchUp100kMissedEvents: a client that holds nothing of a
// session with 100,000 durable events catches up by paging forward (Replay
// mode: view/page after, 1,000 events a page, until hasNewer is false).
// Reported: time per full catch-up, pages per catch-up.
func BenchmarkCatchUp100kMissedEvents(b *testing.B) {
	const n = 100_000
	h := startHost(b, host.Options{Ephemeral: true, AgentImpl: bulkAgent{n: n}})
	sid := h.DefaultSessionID()
	if sid == "" {
		r := dialRaw(b, h.URL(), h.Token())
		sid = createSessionRaw(b, r)
		r.close()
	}
	w := runClient(b, Options{URL: h.URL(), Token: h.Token(), SessionID: sid})
	waitFor(b, w.Client, "live", isLive)
	cid := w.Submit("make a lot of history")
	waitFor(b, w.Client, "history made", func(s Picture) bool {
		_, settled := w.Settlement(cid)
		return settled && idle(s)
	})
	w.Stop()

	b.ResetTimer()
	var pages, events int64
	for range b.N {
		var count int64
		c := runClient(b, Options{URL: h.URL(), Token: h.Token(), SessionID: sid, Replay: true, PageLimit: 1000,
			OnEvent: func(*model.Event) { count++ }})
		waitFor(b, c.Client, "caught up", isLive)
		b.StopTimer()
		pages += c.stats.afterPages.Load()
		c.Stop()
		events += count
		b.StartTimer()
	}
	b.ReportMetric(float64(pages)/float64(b.N), "pages/op")
	b.ReportMetric(float64(events)/float64(b.N), "events/op")
}

func createSessionRaw(b testing.TB, r *rawRPC) string {
	var out struct {
		SessionID string `json:"sessionId"`
	}
	res := r.call("session/create", map[string]any{"title": "bench"})
	if err := jsonUnmarshal(res, &out); err != nil {
		b.Fatal(err)
	}
	return out.SessionID
}

// deltaAgent streams deltas at a fixed rate; each delta carries its emit
// time (UnixNano) so the client can measure emit-to-fold latency.
type deltaAgent struct {
	count int
	every time.Duration
}

func (deltaAgent) Launch(string) error { return nil }

func (a deltaAgent) Run(ctx context.Context, t *host.Turn) error {
	id, err := t.StartItem(model.KindAgentMessage, model.StatusInProgress, map[string]any{"text": ""})
	if err != nil {
		return err
	}
	start := time.Now()
	for i := range a.count {
		if d := time.Until(start.Add(time.Duration(i) * a.every)); d > 0 {
			time.Sleep(d)
		}
		if err := t.Delta(id, "text", strconv.FormatInt(time.Now().UnixNano(), 10)+";"); err != nil {
			return err
		}
	}
	return t.CompleteItem(id, model.StatusCompleted, nil)
}

// BenchmarkLiveDeltaLatency2000PerSecond: the host emits 2,000 deltas per
// second (one turn of 2,000 deltas, about one second, per op); the client
// measures host-emit to fold-applied latency for each. Reported: p50, p99
// and max in microseconds.
func BenchmarkLiveDeltaLatency2000PerSecond(b *testing.B) {
	h := startHost(b, host.Options{Ephemeral: true, AgentImpl: deltaAgent{count: 2000, every: 500 * time.Microsecond}})
	r := dialRaw(b, h.URL(), h.Token())
	sid := createSessionRaw(b, r)
	r.close()
	var mu gosync.Mutex
	var lat []time.Duration
	c := runClient(b, Options{URL: h.URL(), Token: h.Token(), SessionID: sid, Deltas: true,
		OnEvent: func(ev *model.Event) {
			if ev.Method != model.MethodItemDelta {
				return
			}
			ns, err := strconv.ParseInt(strings.TrimSuffix(ev.Delta, ";"), 10, 64)
			if err != nil {
				return
			}
			d := time.Since(time.Unix(0, ns))
			mu.Lock()
			lat = append(lat, d)
			mu.Unlock()
		}})
	waitFor(b, c.Client, "live", isLive)
	b.ResetTimer()
	for i := range b.N {
		cid := c.Submit(fmt.Sprint("stream ", i))
		waitFor(b, c.Client, "turn done", func(s Picture) bool { return idle(s) && userMessages(s.View)[cid] == 1 })
	}
	b.StopTimer()
	mu.Lock()
	defer mu.Unlock()
	if len(lat) == 0 {
		b.Fatal("no delta measured")
	}
	slices.Sort(lat)
	q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(q(0.50), "p50-µs")
	b.ReportMetric(q(0.99), "p99-µs")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds()), "max-µs")
	b.ReportMetric(float64(len(lat))/float64(b.N), "deltas/op")
}

// BenchmarkColdStartFromCache: New with a replica of 5,000 settled items
// on disk, to the first published View holding them (before any network).
func BenchmarkColdStartFromCache(b *testing.B) {
	dir := b.TempDir()
	c := newCacheClientTB(b, dir, "127.0.0.1:1", "s1")
	c.loop.st, c.loop.authority = settledState(b, "s1", 5000), true
	c.loop.cacheDirty()
	c.loop.writeCache(true)
	b.ResetTimer()
	for range b.N {
		c := newCacheClientTB(b, dir, "127.0.0.1:1", "s1")
		if v := c.Current().View; len(v.Items) != 5000 {
			b.Fatalf("painted %d items", len(v.Items))
		}
	}
}

func newCacheClientTB(b testing.TB, dir, url, sid string) *Client {
	c, err := New(Options{URL: url, SessionID: sid, CacheDir: dir, Token: "x"})
	if err != nil {
		b.Fatal(err)
	}
	return c
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
