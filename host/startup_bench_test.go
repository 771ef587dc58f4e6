package host

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// buildJournal writes sessions × perSession durable item/completed events
// (about 150 bytes of params each) into a durable journal in dir and
// closes the host that wrote them.
func buildJournal(tb testing.TB, dir string, sessions, perSession int) {
	tb.Helper()
	h, err := Start(context.Background(), Options{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		tb.Fatal(err)
	}
	for i := range sessions {
		s, err := h.createSession(fmt.Sprint("session ", i))
		if err != nil {
			tb.Fatal(err)
		}
		for range perSession {
			s.mu.Lock()
			o := newItemObject(newID(), model.KindAgentMessage, "turn", model.StatusCompleted, s.seq+1)
			o.apply(map[string]any{"text": "a durable event of ordinary size, about one line of text"}, boundsFor(0))
			_, err := s.emitLocked(model.MethodItemCompleted, map[string]any{"item": o.raw()})
			s.mu.Unlock()
			if err != nil {
				tb.Fatal(err)
			}
		}
		if err := s.flush(); err != nil {
			tb.Fatal(err)
		}
		s.recordQuiet() // as at the end of its last turn
	}
	if err := h.Close(); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkStartup measures how long a durable host takes to start on
// journals of growing size: 100 sessions of 10, 100 and 1,000 events each
// (1k, 10k and 100k events), after a graceful shutdown (sessions start
// unloaded) and after an abnormal death (no clean-shutdown summary: every
// session is folded at start).
func BenchmarkStartup(b *testing.B) {
	for _, per := range []int{10, 100, 1000} {
		for _, unclean := range []bool{false, true} {
			name := fmt.Sprintf("events=%d/graceful", 100*per)
			if unclean {
				name = fmt.Sprintf("events=%d/afterDeath", 100*per)
			}
			b.Run(name, func(b *testing.B) { benchStartup(b, per, unclean) })
		}
	}
}

func benchStartup(b *testing.B, per int, unclean bool) {
	dir := b.TempDir()
	t0 := time.Now()
	buildJournal(b, dir, 100, per)
	b.Logf("built %d events in %v", 100*per, time.Since(t0))
	b.ResetTimer()
	for range b.N {
		if unclean {
			b.StopTimer()
			j, err := openTestJournal(dir)
			if err != nil {
				b.Fatal(err)
			}
			if err := j.setMeta(cleanShutdownKey, ""); err != nil {
				b.Fatal(err)
			}
			j.close()
			b.StartTimer()
		}
		h, err := Start(context.Background(), Options{Addr: "127.0.0.1:0", DataDir: dir})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		h.Close()
		b.StartTimer()
	}
}
