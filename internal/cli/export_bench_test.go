package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	gosync "sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/lookout-sh/lookout/model"
)

// pageHost is a WebSocket host that serves one session's durable history
// from memory, fast: it answers initialize, session/subscribe (a snapshot
// delivery, which a replaying client pages past) and view/page after. It
// stands in for a real host where only the client's work is measured.
type pageHost struct {
	srv    *httptest.Server
	sid    string
	events []model.PageElement // events[i] has seq i+1
}

// sessionEvents builds a session's durable history: the params of each
// event get the envelope (sessionId, viewCursor, prevCursor) in order.
type sessionEvents struct {
	sid    string
	events []model.PageElement // events[i] has seq i+1
}

func (e *sessionEvents) add(method string, members string) int64 {
	seq := int64(len(e.events) + 1)
	prev := "null"
	if seq > 1 {
		prev = strconv.Quote(model.FormatCursor(e.sid, seq-1))
	}
	params := fmt.Sprintf(`{"sessionId":%q,"viewCursor":%q,"prevCursor":%s,%s}`, e.sid, model.FormatCursor(e.sid, seq), prev, members)
	e.events = append(e.events, model.PageElement{Method: method, Params: json.RawMessage(params)})
	return seq
}

// agentMessage is the item member of an item event.
func agentMessage(i int, turn string, pos int64, rev int, status, text string) string {
	return fmt.Sprintf(`"item":{"itemId":"0198f0ac-4242-7000-8000-%012d","kind":"agentMessage","turnId":%q,"revision":%d,"status":%q,"recordedAt":"2026-11-30T09:00:00Z","position":%d,"text":%q}`, i, turn, rev, status, pos, text)
}

// benchSession is n completed agent messages in turns of ten
// (turn/started, ten item/completed, turn/completed), every text 200
// bytes, after a title.
func benchSession(n int) *sessionEvents {
	e := &sessionEvents{sid: "S-export-bench"}
	text := strings.Repeat("All 214 tests pass. ", 10)
	e.add(model.MethodSessionState, `"title":"Export benchmark"`)
	for i := 0; i < n; i++ {
		turn := fmt.Sprintf("T%06d", i/10)
		if i%10 == 0 {
			e.add(model.MethodTurnStarted, fmt.Sprintf(`"turnId":%q,"startedAt":"2026-11-30T09:00:00Z"`, turn))
		}
		pos := int64(len(e.events) + 1)
		e.add(model.MethodItemCompleted, agentMessage(i, turn, pos, 1, "completed", text))
		if i%10 == 9 || i == n-1 {
			e.add(model.MethodTurnCompleted, fmt.Sprintf(`"turnId":%q,"status":"completed"`, turn))
		}
	}
	return e
}

// newPageHost serves the session e.
func newPageHost(tb testing.TB, e *sessionEvents) *pageHost {
	tb.Helper()
	h := &pageHost{sid: e.sid, events: e.events}
	up := websocket.Upgrader{}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		var mu gosync.Mutex
		for {
			_, b, err := ws.ReadMessage()
			if err != nil {
				return
			}
			var req struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params struct {
					Cursor string `json:"cursor"`
					Limit  int    `json:"limit"`
				} `json:"params"`
			}
			if json.Unmarshal(b, &req) != nil || len(req.ID) == 0 {
				continue
			}
			out := append([]byte(`{"jsonrpc":"2.0","id":`), req.ID...)
			out = append(out, `,"result":`...)
			out = h.answer(out, req.Method, req.Params.Cursor, req.Params.Limit)
			out = append(out, '}')
			mu.Lock()
			err = ws.WriteMessage(websocket.TextMessage, out)
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}))
	tb.Cleanup(h.srv.Close)
	return h
}

func (h *pageHost) URL() string { return "ws" + strings.TrimPrefix(h.srv.URL, "http") + "/v1/ws" }

const pageHostEpoch = "e-bench"

// answer appends the result of one request to dst.
func (h *pageHost) answer(dst []byte, method, cursor string, limit int) []byte {
	head := model.FormatCursor(h.sid, int64(len(h.events)))
	switch method {
	case "initialize":
		return append(dst, `{"serverInfo":{"name":"page-host","version":"0"},"protocolVersion":1,"durability":"durable","features":{}}`...)
	case "session/subscribe":
		return fmt.Appendf(dst, `{"epoch":%q,"head":%q,"delivery":"snapshot","snapshot":{"cursor":%q,"durableCursor":%q,"items":[],"hasOlder":true,"activeTurn":null,"queuedTurns":[],"pendingApprovals":[],"state":{}}}`,
			pageHostEpoch, head, head, head)
	case "view/page":
		_, from, _ := model.ParseCursor(cursor)
		if limit <= 0 {
			limit = 200
		}
		to := min(int(from)+limit, len(h.events))
		p := model.Page{Epoch: pageHostEpoch, Events: h.events[from:to], StartCursor: model.FormatCursor(h.sid, from+1),
			EndCursor: model.FormatCursor(h.sid, int64(to)), HasNewer: to < len(h.events)}
		return p.AppendJSON(dst)
	default:
		return append(dst, `{}`...)
	}
}

// BenchmarkExport100k runs `lookout export` of a 100,000-item session
// against a host serving it from memory, for both formats. It reports,
// per export, the process's CPU time (the in-process host's small share
// included) and the peak of the live heap above what was live before
// (which holds the host's copy of the session): what the export itself
// keeps, flat in the session's size. Targets (docs/performance.md): 1.5 s and 64 MB.
func BenchmarkExport100k(b *testing.B) {
	h := newPageHost(b, benchSession(100_000))
	for _, format := range []string{"json", "markdown"} {
		b.Run(format, func(b *testing.B) {
			var peak, cpu float64
			var written int64
			for range b.N {
				runtime.GC()
				stop := sampleLiveHeap()
				cpu0 := processCPU()
				out := &countingWriter{}
				root := newRootCmd()
				root.SetOut(out)
				root.SetErr(io.Discard)
				root.SetArgs([]string{"export", h.URL(), "--token=x", "--session", h.sid, "--format", format})
				err := root.ExecuteContext(context.Background())
				cpu += (processCPU() - cpu0).Seconds()
				peak = max(peak, float64(stop())/(1<<20))
				if err != nil {
					b.Fatal(err)
				}
				if !bytes.Contains(out.tail, []byte("All 214 tests pass")) {
					b.Fatalf("the export ends %q", out.tail)
				}
				written = out.n
			}
			b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
			b.ReportMetric(peak, "peak-live-MB")
			b.ReportMetric(float64(written)/(1<<20), "out-MB")
		})
	}
}

// processCPU is the CPU time the process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// sampleLiveHeap watches the live heap (as of each garbage collection)
// until stop, which returns its peak above the live heap at the start.
func sampleLiveHeap() (stop func() uint64) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	live := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := live()
	var peak uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			if l := live(); l > base {
				peak = max(peak, l-base)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		runtime.GC() // what is still live once the export ended counts too
		if l := live(); l > base {
			peak = max(peak, l-base)
		}
		return peak
	}
}

// countingWriter counts what is written and keeps its last bytes.
type countingWriter struct {
	n    int64
	tail []byte
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	w.tail = append(w.tail, p...)
	if len(w.tail) > 4096 {
		w.tail = append(w.tail[:0], w.tail[len(w.tail)-4096:]...)
	}
	return len(p), nil
}
