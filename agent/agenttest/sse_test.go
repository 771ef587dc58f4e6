package agenttest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestSSEWritesEventsReadSSEReads(t *testing.T) {
	for _, every := range []int{0, 3} {
		w := httptest.NewRecorder()
		s := NewSSE(context.Background(), w, 0)
		s.FlushEvery = every
		for i := range 4 {
			if !s.Event("delta", map[string]any{"i": i}) {
				t.Fatal("a live stream refused an event")
			}
		}
		if !s.Flush() {
			t.Fatal("Flush failed")
		}
		if ct := w.Header().Get("Content-Type"); ct != "text/event-stream" || w.Code != http.StatusOK {
			t.Errorf("answer %d %q", w.Code, ct)
		}
		evs := ReadSSE(t, w.Body)
		if len(evs) != 4 || evs[3].Type != "delta" || evs[3].Data["i"] != float64(3) {
			t.Errorf("FlushEvery %d: read %+v", every, evs)
		}
		if !w.Flushed {
			t.Errorf("FlushEvery %d: never flushed", every)
		}
	}
}

func TestSSEStopsWhenItsContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	w := httptest.NewRecorder()
	s := NewSSE(ctx, w, time.Hour)
	go func() {
		time.Sleep(10 * time.Millisecond)
		cancel()
	}()
	if s.Event("first", map[string]any{}) {
		t.Error("the gap after an event outlived the context")
	}
	if s.OK() || s.Event("second", map[string]any{}) || s.Sleep(time.Millisecond) {
		t.Error("an ended stream took more")
	}
	if strings.Count(w.Body.String(), "event: ") != 1 {
		t.Errorf("wrote %q", w.Body.String())
	}
}

func TestSSEDeltasPacesAndStops(t *testing.T) {
	w := httptest.NewRecorder()
	s := NewSSE(context.Background(), w, 0)
	var got []string
	start := time.Now()
	ok := s.Deltas(Deltas("a", "b", "c"), 10*time.Millisecond, func(d string) bool {
		got = append(got, d)
		return s.Event("delta", map[string]any{"d": d})
	})
	if !ok || strings.Join(got, "") != "abc" || time.Since(start) < 20*time.Millisecond {
		t.Errorf("Deltas = %v, %q after %v", ok, got, time.Since(start))
	}
	got = nil
	if s.Deltas(Deltas("a", "b"), 0, func(d string) bool { got = append(got, d); return false }) || len(got) != 1 {
		t.Errorf("Deltas went on after emit failed: %q", got)
	}
}

func TestSSEDataWritesDataOnlyEvents(t *testing.T) {
	w := httptest.NewRecorder()
	s := NewSSE(context.Background(), w, 0)
	if !s.Data(`{"a":1}`) || !s.Data("[DONE]") {
		t.Fatal("a live stream refused data")
	}
	if got := w.Body.String(); got != "data: {\"a\":1}\n\ndata: [DONE]\n\n" || !w.Flushed {
		t.Errorf("wrote %q (flushed %v)", got, w.Flushed)
	}
}
