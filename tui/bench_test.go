package tui

import (
	"fmt"
	"runtime"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/lookout-sh/lookout/model"
)

// benchSource builds a fake holding n items (finished exchanges) and an
// open agent message "live" at the end, and a model showing it.
func benchSource(tb testing.TB, n int) (*fakeSource, *Model) {
	f := newFake(tb)
	f.mu.Lock()
	for i := 0; i < n; i++ {
		kind, text := "userMessage", fmt.Sprintf("question %d", i)
		if i%2 == 1 {
			kind, text = "agentMessage", fmt.Sprintf("answer %d with **bold** and `code`", i)
		}
		f.seq++
		raw := fmt.Sprintf(`{"jsonrpc":"2.0","method":"item/completed","params":{"sessionId":"s1","viewCursor":"v:s1:%d","prevCursor":%s,"item":{"itemId":"i%06d","kind":%q,"turnId":"t","revision":1,"status":"completed","text":%q}}}`,
			f.seq, prevJSON(f.prev), i, kind, text)
		f.prev = f.seq
		applyRaw(tb, f.st, raw)
	}
	f.seq++
	applyRaw(tb, f.st, fmt.Sprintf(`{"jsonrpc":"2.0","method":"item/started","params":{"sessionId":"s1","viewCursor":"v:s1:%d","prevCursor":%s,"item":{"itemId":"live","kind":"agentMessage","turnId":"t","revision":1,"status":"inProgress","text":"Streaming: "}}}`,
		f.seq, prevJSON(f.prev)))
	f.prev = f.seq
	f.publishLocked()
	f.mu.Unlock()
	m := stillModel(tb, f)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(frameMsg{})
	_ = m.View()
	return f, m
}

func prevJSON(p int64) string {
	if p == 0 {
		return "null"
	}
	return fmt.Sprintf("%q", model.FormatCursor("s1", p))
}

func applyRaw(tb testing.TB, st *model.State, raw string) {
	ev, err := model.DecodeFrame([]byte(raw))
	if err != nil {
		tb.Fatal(err)
	}
	if err := st.Apply(ev); err != nil {
		tb.Fatal(err)
	}
}

// deltaFrame folds one text delta (decoded from its wire frame) into the
// source's state and publishes the View, as sync does.
func deltaFrame(tb testing.TB, f *fakeSource, i int) {
	f.mu.Lock()
	f.seq++
	d := "word "
	if i%20 == 19 {
		d = "end of paragraph.\n\n"
	}
	applyRaw(tb, f.st, fmt.Sprintf(`{"jsonrpc":"2.0","method":"item/delta","params":{"sessionId":"s1","viewCursor":"v:s1:%d","itemId":"live","delta":%q}}`, f.seq, d))
	f.publishLocked()
	f.mu.Unlock()
}

// BenchmarkDeltaFrame: one delta folded and the frame rendered, with 100
// and with 10,000 items in the transcript. Windowed layout makes the two
// cost about the same.
func BenchmarkDeltaFrame(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			f, m := benchSource(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				deltaFrame(b, f, i)
				m.Update(frameMsg{})
				_ = m.View()
			}
		})
	}
}

// BenchmarkResize10000: a width change re-lays the screen out with 10,000
// items (every iteration a new width, so visible rows re-render).
func BenchmarkResize10000(b *testing.B) {
	_, m := benchSource(b, 10000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Update(tea.WindowSizeMsg{Width: 60 + i%61, Height: 40})
		_ = m.View()
	}
}

// BenchmarkMemoryPerItem reports the heap held per transcript item: the
// fold's state (items, order) plus the UI (rows, render caches of what
// was shown).
func BenchmarkMemoryPerItem(b *testing.B) {
	const n = 10000
	var per float64
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f, m := benchSource(b, n)
		runtime.GC()
		runtime.ReadMemStats(&after)
		per = float64(after.HeapAlloc-before.HeapAlloc) / n
		runtime.KeepAlive(f)
		runtime.KeepAlive(m)
	}
	b.ReportMetric(per, "B/item")
}

// The layout is windowed: opening a 10,000-item transcript renders only
// the rows near the screen, and a delta re-renders only the streaming row.
func TestWindowedLayoutRendersOnlyVisibleRows(t *testing.T) {
	f, m := benchSource(t, 10000)
	if got := m.r.Stats().ItemRenders; got > 100 {
		t.Fatalf("opening rendered %d items, want only the visible ones", got)
	}
	before := m.r.Stats().ItemRenders
	deltaFrame(t, f, 0)
	m.Update(frameMsg{})
	if got := m.r.Stats().ItemRenders - before; got != 1 {
		t.Fatalf("a delta re-rendered %d items, want 1", got)
	}
	// Scrolling a page renders about a page of new rows, not the list.
	before = m.r.Stats().ItemRenders
	m.Update(keyMsg("pgup"))
	if got := m.r.Stats().ItemRenders - before; got > 40 {
		t.Fatalf("a page up rendered %d items", got)
	}
}
