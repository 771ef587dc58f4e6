package codextest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// stream writes one Responses API answer as server-sent events (see
// agenttest.SSE). It mints the response and item ids and keeps the output
// index.
type stream struct {
	*agenttest.SSE
	id   string // response id; item ids derive from it
	next int    // next output_index
}

func newStream(ctx context.Context, w http.ResponseWriter, id string, gap time.Duration) *stream {
	return &stream{SSE: agenttest.NewSSE(ctx, w, gap), id: id}
}

// itemID mints an item id: prefix, the response id's tail and the index.
func (s *stream) itemID(prefix string, idx int) string {
	return fmt.Sprintf("%s_%s_%d", prefix, strings.TrimPrefix(s.id, "resp_"), idx)
}

func (s *stream) created() bool {
	return s.Event("response.created", map[string]any{"response": map[string]any{"id": s.id, "status": "in_progress"}})
}

// reasoning streams a reasoning item whose one summary part arrives as the
// given deltas.
func (s *stream) reasoning(deltas ...string) bool {
	idx := s.next
	s.next++
	id := s.itemID("rs", idx)
	s.Event("response.output_item.added", map[string]any{"output_index": idx,
		"item": map[string]any{"type": "reasoning", "id": id, "summary": []any{}}})
	s.Event("response.reasoning_summary_part.added", map[string]any{"item_id": id, "output_index": idx,
		"summary_index": 0, "part": map[string]any{"type": "summary_text", "text": ""}})
	for _, d := range deltas {
		s.Event("response.reasoning_summary_text.delta", map[string]any{"item_id": id, "output_index": idx,
			"summary_index": 0, "delta": d})
	}
	text := strings.Join(deltas, "")
	s.Event("response.reasoning_summary_text.done", map[string]any{"item_id": id, "output_index": idx,
		"summary_index": 0, "text": text})
	return s.Event("response.output_item.done", map[string]any{"output_index": idx,
		"item": map[string]any{"type": "reasoning", "id": id,
			"summary": []any{map[string]any{"type": "summary_text", "text": text}}}})
}

// message streams an assistant message. next yields the deltas one by one
// (ok false ends the message); wait runs before each delta after the first.
func (s *stream) message(next func() (string, bool), wait time.Duration) bool {
	return s.messageBy(func(emit func(string) bool) bool { return s.Deltas(next, wait, emit) })
}

// messageBy streams an assistant message whose deltas send writes with
// emit (it returns false when the stream ended). The done event carries
// the text streamed so far, so an ended stream still closes the item
// consistently if it can.
func (s *stream) messageBy(send func(emit func(delta string) bool) bool) bool {
	idx := s.next
	s.next++
	id := s.itemID("msg", idx)
	s.Event("response.output_item.added", map[string]any{"output_index": idx,
		"item": map[string]any{"type": "message", "id": id, "role": "assistant", "status": "in_progress", "content": []any{}}})
	var text strings.Builder
	if !send(func(d string) bool {
		text.WriteString(d)
		return s.Event("response.output_text.delta", map[string]any{"item_id": id, "output_index": idx,
			"content_index": 0, "delta": d})
	}) {
		return false
	}
	return s.Event("response.output_item.done", map[string]any{"output_index": idx,
		"item": map[string]any{"type": "message", "id": id, "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": text.String(), "annotations": []any{}}}}})
}

// text streams an assistant message made of the given deltas.
func (s *stream) text(deltas ...string) bool {
	return s.message(agenttest.Deltas(deltas...), 0)
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
	s.Event("response.output_item.added", map[string]any{"output_index": idx,
		"item": map[string]any{"type": "function_call", "id": id, "call_id": callID, "name": name, "arguments": ""}})
	s.Event("response.function_call_arguments.delta", map[string]any{"item_id": id, "output_index": idx, "delta": string(a)})
	s.Event("response.function_call_arguments.done", map[string]any{"item_id": id, "output_index": idx, "arguments": string(a)})
	return s.Event("response.output_item.done", map[string]any{"output_index": idx,
		"item": map[string]any{"type": "function_call", "id": id, "call_id": callID, "name": name, "arguments": string(a)}})
}

// completed ends the response with the given token usage.
func (s *stream) completed(u Usage) bool {
	ok := s.Event("response.completed", map[string]any{"response": map[string]any{
		"id": s.id, "status": "completed",
		"usage": map[string]any{
			"input_tokens":          u.Input,
			"input_tokens_details":  map[string]any{"cached_tokens": u.Cached},
			"output_tokens":         u.Output,
			"output_tokens_details": map[string]any{"reasoning_tokens": u.Reasoning},
			"total_tokens":          u.Input + u.Output,
		}}})
	if ok {
		ok = s.Flush()
	}
	return ok
}

// failed ends the response with response.failed and an error.
func (s *stream) failed(code, message string) bool {
	ok := s.Event("response.failed", map[string]any{"response": map[string]any{
		"id": s.id, "status": "failed",
		"error": map[string]any{"code": code, "message": message}}})
	if ok {
		ok = s.Flush()
	}
	return ok
}
