package host

import (
	"context"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

func benchHost(b *testing.B, ephemeral bool) (*Host, *session) {
	b.Helper()
	opts := Options{Addr: "127.0.0.1:0", Ephemeral: ephemeral}
	if !ephemeral {
		opts.DataDir = b.TempDir()
	}
	h, err := Start(context.Background(), opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { h.Close() })
	s, err := h.createSession("bench")
	if err != nil {
		b.Fatal(err)
	}
	return h, s
}

// BenchmarkJournalDurableEvents measures durable events emitted (journaled
// in SQLite, then folded) per second on one session with no subscriber.
func BenchmarkJournalDurableEvents(b *testing.B) {
	_, s := benchHost(b, false)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.mu.Lock()
		o := newItemObject(newID(), model.KindAgentMessage, "turn", model.StatusCompleted, s.seq+1)
		o.apply(map[string]any{"text": "a durable event of ordinary size, about one line of text"}, boundsFor(0))
		if _, err := s.emitLocked(model.MethodItemCompleted, map[string]any{"item": o.raw()}); err != nil {
			b.Fatal(err)
		}
		s.mu.Unlock()
	}
	if err := s.flush(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
