package agenttest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// SSE writes one HTTP answer as server-sent events ("event: TYPE" /
// "data: JSON" pairs), the way model APIs stream to an agent. A fake
// model's stream type embeds it and adds its API's events. After a write
// fails, or ctx ends (the request, or the fake closing), every method is a
// no-op returning false, so a scenario can run to its end without checking
// each step. One SSE serves one request; it is not safe for concurrent
// use.
type SSE struct {
	// FlushEvery > 1 batches flushes (a fast, long answer); 0 or 1 flushes
	// after every event.
	FlushEvery int

	ctx       context.Context
	w         http.ResponseWriter
	rc        *http.ResponseController
	gap       time.Duration
	dead      bool
	unflushed int
}

// NewSSE starts the answer: status 200, Content-Type text/event-stream,
// no caching. Set any other header on w before. gap is a pause after every
// event (0: none).
func NewSSE(ctx context.Context, w http.ResponseWriter, gap time.Duration) *SSE {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return &SSE{ctx: ctx, w: w, rc: http.NewResponseController(w), gap: gap}
}

// OK reports whether the stream can still be written.
func (s *SSE) OK() bool {
	if !s.dead && s.ctx.Err() != nil {
		s.dead = true
	}
	return !s.dead
}

// Event writes one event whose data is fields plus "type": typ, flushes it
// (see FlushEvery) and pauses for the gap. fields must marshal: a fake
// only writes maps of its own making, so a failure panics.
func (s *SSE) Event(typ string, fields map[string]any) bool {
	if !s.OK() {
		return false
	}
	fields["type"] = typ
	data, err := json.Marshal(fields)
	if err != nil {
		panic(fmt.Sprintf("agenttest: marshal %s: %v", typ, err))
	}
	return s.write("event: " + typ + "\ndata: " + string(data) + "\n\n")
}

// Data writes one event of data alone (no "event:" line, as OpenAI's chat
// completions stream: "data: {...}", "data: [DONE]"), flushes it (see
// FlushEvery) and pauses for the gap.
func (s *SSE) Data(data string) bool {
	if !s.OK() {
		return false
	}
	return s.write("data: " + data + "\n\n")
}

// write writes one whole event, flushes (see FlushEvery) and pauses.
func (s *SSE) write(event string) bool {
	if _, err := io.WriteString(s.w, event); err != nil {
		s.dead = true
		return false
	}
	s.unflushed++
	if s.FlushEvery <= 1 || s.unflushed >= s.FlushEvery {
		if !s.flush() {
			return false
		}
	}
	return s.Sleep(s.gap)
}

// Flush sends the events written since the last flush, if any: call it at
// the end of an answer when FlushEvery batches flushes.
func (s *SSE) Flush() bool {
	if s.unflushed == 0 {
		return s.OK()
	}
	return s.flush()
}

func (s *SSE) flush() bool {
	s.unflushed = 0
	if err := s.rc.Flush(); err != nil {
		s.dead = true
	}
	return !s.dead
}

// Deltas writes the deltas next yields (ok false after the last) with
// emit, one event each, pausing wait before each delta after the first.
// It returns false as soon as the stream ends or emit fails.
func (s *SSE) Deltas(next func() (delta string, ok bool), wait time.Duration, emit func(delta string) bool) bool {
	for first := true; ; first = false {
		d, more := next()
		if !more {
			return true
		}
		if !first && !s.Sleep(wait) {
			return false
		}
		if !emit(d) {
			return false
		}
	}
}

// Sleep pauses for d unless the stream ends first.
func (s *SSE) Sleep(d time.Duration) bool {
	if d <= 0 {
		return s.OK()
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return s.OK()
	case <-s.ctx.Done():
		s.dead = true
		return false
	}
}
