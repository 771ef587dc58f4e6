package codextest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// stream writes one Responses API answer as server-sent events
// ("event: TYPE" / "data: JSON" pairs). It mints the response and item ids
// and keeps the output index. After a write fails, or the request's
// context or the fake ends, every method is a no-op returning false, so a
// scenario can run to its end without checking each step.
type stream struct {
	ctx  context.Context
	w    http.ResponseWriter
	rc   *http.ResponseController
	gap  time.Duration
	id   string // response id; item ids derive from it
	next int    // next output_index
	dead bool
	// flushEvery > 1 batches flushes (the long scenario); 0 or 1 flushes
	// after every event.
	flushEvery int
	unflushed  int
}

func newStream(ctx context.Context, w http.ResponseWriter, id string, gap time.Duration) *stream {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return &stream{ctx: ctx, w: w, rc: http.NewResponseController(w), gap: gap, id: id}
}

// ok reports whether the stream can still be written.
func (s *stream) ok() bool {
	if !s.dead && s.ctx.Err() != nil {
		s.dead = true
	}
	return !s.dead
}

// event writes one SSE event whose data is fields plus "type".
func (s *stream) event(typ string, fields map[string]any) bool {
	if !s.ok() {
		return false
	}
	fields["type"] = typ
	data, err := json.Marshal(fields)
	if err != nil {
		panic(fmt.Sprintf("codextest: marshal %s: %v", typ, err)) // only our own maps are marshalled
	}
	if _, err := fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", typ, data); err != nil {
		s.dead = true
		return false
	}
	s.unflushed++
	if s.flushEvery <= 1 || s.unflushed >= s.flushEvery {
		if !s.flush() {
			return false
		}
	}
	return s.sleep(s.gap)
}

func (s *stream) flush() bool {
	s.unflushed = 0
	if err := s.rc.Flush(); err != nil {
		s.dead = true
	}
	return !s.dead
}

// sleep pauses for d unless the stream ends first.
func (s *stream) sleep(d time.Duration) bool {
	if d <= 0 {
		return s.ok()
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return s.ok()
	case <-s.ctx.Done():
		s.dead = true
		return false
	}
}

// itemID mints an item id: prefix, the response id's tail and the index.
func (s *stream) itemID(prefix string, idx int) string {
	return fmt.Sprintf("%s_%s_%d", prefix, strings.TrimPrefix(s.id, "resp_"), idx)
}

func (s *stream) created() bool {
	return s.event("response.created", map[string]any{"response": map[string]any{"id": s.id, "status": "in_progress"}})
}

// reasoning streams a reasoning item whose one summary part arrives as the
// given deltas.
func (s *stream) reasoning(deltas ...string) bool {
	idx := s.next
	s.next++
	id := s.itemID("rs", idx)
	s.event("response.output_item.added", map[string]any{"output_index": idx,
		"item": map[string]any{"type": "reasoning", "id": id, "summary": []any{}}})
	s.event("response.reasoning_summary_part.added", map[string]any{"item_id": id, "output_index": idx,
		"summary_index": 0, "part": map[string]any{"type": "summary_text", "text": ""}})
	for _, d := range deltas {
		s.event("response.reasoning_summary_text.delta", map[string]any{"item_id": id, "output_index": idx,
			"summary_index": 0, "delta": d})
	}
	text := strings.Join(deltas, "")
	s.event("response.reasoning_summary_text.done", map[string]any{"item_id": id, "output_index": idx,
		"summary_index": 0, "text": text})
	return s.event("response.output_item.done", map[string]any{"output_index": idx,
		"item": map[string]any{"type": "reasoning", "id": id,
			"summary": []any{map[string]any{"type": "summary_text", "text": text}}}})
}

// message streams an assistant message. next yields the deltas one by one
// (ok false ends the message); wait runs before each delta after the first.
// The done event carries the text streamed so far, so an ended stream
// still closes the item consistently if it can.
func (s *stream) message(next func() (string, bool), wait time.Duration) bool {
	idx := s.next
	s.next++
	id := s.itemID("msg", idx)
	s.event("response.output_item.added", map[string]any{"output_index": idx,
		"item": map[string]any{"type": "message", "id": id, "role": "assistant", "status": "in_progress", "content": []any{}}})
	var text strings.Builder
	for first := true; ; first = false {
		d, more := next()
		if !more {
			break
		}
		if !first && !s.sleep(wait) {
			return false
		}
		text.WriteString(d)
		if !s.event("response.output_text.delta", map[string]any{"item_id": id, "output_index": idx,
			"content_index": 0, "delta": d}) {
			return false
		}
	}
	return s.event("response.output_item.done", map[string]any{"output_index": idx,
		"item": map[string]any{"type": "message", "id": id, "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": text.String(), "annotations": []any{}}}}})
}

// text streams an assistant message made of the given deltas.
func (s *stream) text(deltas ...string) bool {
	i := 0
	return s.message(func() (string, bool) {
		if i >= len(deltas) {
			return "", false
		}
		i++
		return deltas[i-1], true
	}, 0)
}

// functionCall streams a function_call item; args is marshalled to the
// arguments string.
func (s *stream) functionCall(name string, args any) bool {
	idx := s.next
	s.next++
	id, callID := s.itemID("fc", idx), s.itemID("call", idx)
	a, err := json.Marshal(args)
	if err != nil {
		panic(fmt.Sprintf("codextest: marshal arguments: %v", err))
	}
	s.event("response.output_item.added", map[string]any{"output_index": idx,
		"item": map[string]any{"type": "function_call", "id": id, "call_id": callID, "name": name, "arguments": ""}})
	s.event("response.function_call_arguments.delta", map[string]any{"item_id": id, "output_index": idx, "delta": string(a)})
	s.event("response.function_call_arguments.done", map[string]any{"item_id": id, "output_index": idx, "arguments": string(a)})
	return s.event("response.output_item.done", map[string]any{"output_index": idx,
		"item": map[string]any{"type": "function_call", "id": id, "call_id": callID, "name": name, "arguments": string(a)}})
}

// completed ends the response with the given token usage.
func (s *stream) completed(u Usage) bool {
	ok := s.event("response.completed", map[string]any{"response": map[string]any{
		"id": s.id, "status": "completed",
		"usage": map[string]any{
			"input_tokens":          u.Input,
			"input_tokens_details":  map[string]any{"cached_tokens": u.Cached},
			"output_tokens":         u.Output,
			"output_tokens_details": map[string]any{"reasoning_tokens": u.Reasoning},
			"total_tokens":          u.Input + u.Output,
		}}})
	if ok && s.unflushed > 0 {
		ok = s.flush()
	}
	return ok
}

// failed ends the response with response.failed and an error.
func (s *stream) failed(code, message string) bool {
	ok := s.event("response.failed", map[string]any{"response": map[string]any{
		"id": s.id, "status": "failed",
		"error": map[string]any{"code": code, "message": message}}})
	if ok && s.unflushed > 0 {
		ok = s.flush()
	}
	return ok
}
