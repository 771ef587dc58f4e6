package tui

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/internal/benchtext"

	tea "charm.land/bubbletea/v2"
)

// The Go side of the end-to-end rendering benchmark (docs/performance.md):
// shared/bench/longmd.md (200,555 bytes) folded in 10-byte deltas into a
// 120x40 model, with a frame every perFrame deltas, then completed. The
// end-to-end run measures the whole process in tmux; these measure the
// model's share (decode, fold, layout, render) without a terminal.

// streamModel is a 120x40 model on a session holding a prompt and an open,
// empty agent message "live".
func streamModel(tb testing.TB) (*fakeSource, *Model) {
	f := newFake(tb)
	f.item("item/completed", map[string]any{"itemId": "u1", "kind": "userMessage", "status": "completed", "text": "go", "position": 1})
	f.item("item/started", map[string]any{"itemId": "live", "kind": "agentMessage", "text": "", "position": 2})
	m := stillModel(tb, f)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(frameMsg{})
	_ = m.View()
	return f, m
}

// foldDeltas folds text into "live" in 10-byte deltas, each decoded from
// its wire frame as the client does, and publishes once.
func foldDeltas(tb testing.TB, f *fakeSource, text string) {
	f.mu.Lock()
	for len(text) > 0 {
		n := min(10, len(text))
		f.seq++
		applyRaw(tb, f.st, `{"jsonrpc":"2.0","method":"item/delta","params":{"sessionId":"s1","viewCursor":"v:s1:`+
			strconv.FormatInt(f.seq, 10)+`","itemId":"live","delta":`+strconv.Quote(text[:n])+`}}`)
		text = text[n:]
	}
	f.publishLocked()
	f.mu.Unlock()
}

// completeLive folds item/completed for "live" with its whole text.
func completeLive(tb testing.TB, f *fakeSource, text string) {
	f.item("item/completed", map[string]any{"itemId": "live", "kind": "agentMessage", "status": "completed", "revision": 2, "text": text, "position": 2})
}

// streamStats is what one streamed answer cost.
type streamStats struct {
	frames   int
	maxFrame time.Duration
	last     time.Duration // the frame showing the completed message
	peakHeap uint64
}

// streamOnce streams text into a fresh model with a frame every perFrame
// deltas, then completes it and renders the final frame.
func streamOnce(b *testing.B, text string, perFrame int, sampleHeap bool) streamStats {
	b.StopTimer()
	f, m := streamModel(b)
	runtime.GC()
	b.StartTimer()
	var st streamStats
	frame := func() time.Duration {
		t0 := time.Now()
		m.Update(frameMsg{})
		_ = m.View()
		d := time.Since(t0)
		st.frames++
		st.maxFrame = max(st.maxFrame, d)
		if sampleHeap {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			st.peakHeap = max(st.peakHeap, ms.HeapInuse)
		}
		return d
	}
	step := perFrame * 10
	for i := 0; i < len(text); i += step {
		foldDeltas(b, f, text[i:min(i+step, len(text))])
		frame()
	}
	completeLive(b, f, text)
	st.last = frame()
	return st
}

// BenchmarkLongmdStream streams the 200 KB answer (one op is the whole
// answer): "burst" lays a frame out every 1,000 deltas (the socket
// delivers faster than frames), "paced" every 32 deltas (2,000 deltas/s
// at a 16 ms frame). It reports the longest frame (what a keystroke may
// wait behind), the completion frame (the lag after the last delta) and,
// for burst, the peak heap in use.
func BenchmarkLongmdStream(b *testing.B) {
	text := benchtext.Longmd(b)
	for _, c := range []struct {
		name     string
		perFrame int
	}{{"burst", 1000}, {"paced", 32}} {
		b.Run(c.name, func(b *testing.B) {
			var agg streamStats
			n := 0
			for b.Loop() {
				st := streamOnce(b, text, c.perFrame, c.name == "burst")
				agg.frames = st.frames
				agg.maxFrame = max(agg.maxFrame, st.maxFrame)
				agg.last += st.last
				agg.peakHeap = max(agg.peakHeap, st.peakHeap)
				n++
			}
			b.ReportMetric(float64(agg.frames), "frames")
			b.ReportMetric(float64(agg.maxFrame.Microseconds())/1000, "max-frame-ms")
			b.ReportMetric(float64(agg.last.Microseconds())/1000/float64(n), "completion-ms")
			if agg.peakHeap > 0 {
				b.ReportMetric(float64(agg.peakHeap)/(1<<20), "peak-heap-MB")
			}
		})
	}
}

// BenchmarkKeyDuringStream is one keystroke typed into the composer while
// the answer streams: deltas have arrived since the last frame (a frame is
// pending), half the answer is on screen. One op is the key's Update and
// View.
func BenchmarkKeyDuringStream(b *testing.B) {
	text := benchtext.Longmd(b)
	f, m := streamModel(b)
	half := len(text) / 2
	for i := 0; i < half; i += 320 {
		foldDeltas(b, f, text[i:min(i+320, half)])
		m.Update(frameMsg{})
	}
	foldDeltas(b, f, text[half:half+320])
	m.Update(updateMsg{})
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		i++
		k := "a"
		if i%20 == 0 {
			k = "ctrl+u" // keep the composer short
		}
		m.Update(keyMsg(k))
		_ = m.View()
	}
}

// TestLongmdStreamEqualsOneShot: the streamed render of the benchmark
// answer ends on the same screen as the completed one, and that is the
// screen a fresh model lays out from the completed message in one shot
// (the bench's end marker is on it).
func TestLongmdStreamEqualsOneShot(t *testing.T) {
	text := benchtext.Longmd(t)
	f, m := streamModel(t)
	for i := 0; i < len(text); i += 3200 {
		foldDeltas(t, f, text[i:min(i+3200, len(text))])
		m.Update(frameMsg{})
	}
	streamed := m.View().Content
	completeLive(t, f, text)
	m.Update(frameMsg{})
	done := m.View().Content
	fresh := stillModel(t, f)
	fresh.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	fresh.Update(frameMsg{})
	if !strings.Contains(streamed, "LONGMD-END-OF-ANSWER-7f3a") || streamed != done || done != fresh.View().Content {
		t.Fatalf("streamed, completed and one-shot screens differ:\n%s\n---\n%s\n---\n%s", streamed, done, fresh.View().Content)
	}
}
