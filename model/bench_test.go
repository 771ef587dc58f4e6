package model

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// BenchmarkApplyDelta folds pre-decoded deltas onto one open item. Target:
// at least 1,000,000 deltas per second with no allocation per delta beyond
// the field's growth (amortised append).
func BenchmarkApplyDelta(b *testing.B) {
	s := NewState(sid)
	ev, err := DecodeFrame([]byte(frame(MethodItemStarted, 1, 0, item("m", KindAgentMessage, 1, "inProgress", `"text":""`))))
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Apply(ev); err != nil {
		b.Fatal(err)
	}
	evs := make([]Event, b.N)
	for i := range evs {
		evs[i] = Event{Method: MethodItemDelta, SessionID: sid, Seq: int64(i + 2), ItemID: "m", Field: "text", Delta: "tok "}
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := range evs {
		if err := s.Apply(&evs[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "deltas/s")
}

// benchFrames is a realistic wire stream: turns whose agent messages and
// tool calls stream in many small deltas, with the full objects between.
func benchFrames(n int) [][]byte {
	var out [][]byte
	seq, prev := int64(0), int64(0)
	emit := func(method string, durable bool, params string) {
		seq++
		p := int64(-1)
		if durable {
			p, prev = prev, seq
		}
		out = append(out, []byte(frame(method, seq, p, params)))
	}
	for t := 0; len(out) < n; t++ {
		id := fmt.Sprintf("0198f0ac-4242-7000-8000-%012d", t)
		emit(MethodItemStarted, true, item(id, KindAgentMessage, 1, "inProgress", `"text":""`))
		text := ""
		for d := 0; d < 40; d++ {
			emit(MethodItemDelta, false, delta(id, "text", "All 214 tests pass "))
			text += "All 214 tests pass "
		}
		emit(MethodItemCompleted, true, item(id, KindAgentMessage, 2, "completed", fmt.Sprintf(`"text":%q`, text)))
	}
	return out[:n]
}

// BenchmarkDecodeAndFold decodes wire frames and folds them on the path
// the client runs per frame (ParseFrame, then Frame.Event: the frame is
// checked to be JSON once). Target: at least 250,000 events per second on
// one core.
func BenchmarkDecodeAndFold(b *testing.B) {
	frames := benchFrames(4096)
	b.ReportAllocs()
	b.SetBytes(int64(len(frames[1])))
	b.ResetTimer()
	start := time.Now()
	var s *State
	for i := 0; i < b.N; i++ {
		if i%len(frames) == 0 {
			s = NewState(sid)
		}
		ev, err := DecodeFrame(frames[i%len(frames)])
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Apply(ev); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "events/s")
}

// BenchmarkMemoryPerItem reports the heap held per completed item for a
// transcript of 100,000 items (each with a 200-byte text), everything the
// State holds included (decoded inside the measurement).
func BenchmarkMemoryPerItem(b *testing.B) {
	const n = 100_000
	text := fmt.Sprintf("%0200d", 7)
	frames := make([][]byte, n)
	for i := range frames {
		frames[i] = []byte(frame(MethodItemCompleted, int64(i+1), int64(i), item(fmt.Sprintf("0198f0ac-4242-7000-8000-%012d", i), KindAgentMessage, 2, "completed", fmt.Sprintf(`"text":%q`, text))))
	}
	b.ResetTimer()
	var perItem float64
	for range b.N {
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		s := NewState(sid)
		for _, f := range frames {
			ev, err := DecodeFrame(f)
			if err != nil {
				b.Fatal(err)
			}
			if err := s.Apply(ev); err != nil {
				b.Fatal(err)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&m1)
		perItem = float64(m1.HeapAlloc-m0.HeapAlloc) / n
		runtime.KeepAlive(s)
	}
	b.ReportMetric(perItem, "bytes/item")
}
