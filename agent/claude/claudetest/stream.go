package claudetest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// stream writes one Messages API answer as server-sent events (see
// agenttest.SSE). It numbers the content blocks and mints tool_use ids.
type stream struct {
	*agenttest.SSE
	id    string // message id; tool ids derive from it
	model string
	next  int // next content block index
}

func newStream(ctx context.Context, w http.ResponseWriter, id, model string, gap time.Duration) *stream {
	w.Header().Set("Request-Id", "req_"+id)
	return &stream{SSE: agenttest.NewSSE(ctx, w, gap), id: id, model: model}
}

// start opens the message: message_start (with the input side of u) and a
// ping.
func (s *stream) start(u Usage) bool {
	s.Event("message_start", map[string]any{"message": map[string]any{
		"id": s.id, "type": "message", "role": "assistant", "model": s.model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": u.Input, "output_tokens": 1,
			"cache_creation_input_tokens": u.CacheCreation, "cache_read_input_tokens": u.CacheRead},
	}})
	return s.Event("ping", map[string]any{})
}

func (s *stream) blockStart(block map[string]any) int {
	i := s.next
	s.next++
	s.Event("content_block_start", map[string]any{"index": i, "content_block": block})
	return i
}

func (s *stream) delta(i int, delta map[string]any) bool {
	return s.Event("content_block_delta", map[string]any{"index": i, "delta": delta})
}

func (s *stream) blockStop(i int) bool {
	return s.Event("content_block_stop", map[string]any{"index": i})
}

// thinking streams a thinking block made of the given deltas and a
// signature.
func (s *stream) thinking(deltas ...string) bool {
	i := s.blockStart(map[string]any{"type": "thinking", "thinking": "", "signature": ""})
	for _, d := range deltas {
		s.delta(i, map[string]any{"type": "thinking_delta", "thinking": d})
	}
	s.delta(i, map[string]any{"type": "signature_delta", "signature": "fake-signature"})
	return s.blockStop(i)
}

// textBlock streams a text block. next yields the deltas one by one (ok
// false ends the block); wait runs before each delta after the first.
func (s *stream) textBlock(next func() (string, bool), wait time.Duration) bool {
	return s.textBlockBy(func(emit func(string) bool) bool { return s.Deltas(next, wait, emit) })
}

// textBlockBy streams a text block whose deltas send writes with emit (it
// returns false when the stream ended).
func (s *stream) textBlockBy(send func(emit func(delta string) bool) bool) bool {
	i := s.blockStart(map[string]any{"type": "text", "text": ""})
	if !send(func(d string) bool {
		return s.delta(i, map[string]any{"type": "text_delta", "text": d})
	}) {
		return false
	}
	return s.blockStop(i)
}

// text streams a text block made of the given deltas.
func (s *stream) text(deltas ...string) bool {
	return s.textBlock(agenttest.Deltas(deltas...), 0)
}

// toolUse streams a tool_use block whose input arrives as JSON in pieces of
// 16 bytes, and returns its id.
func (s *stream) toolUse(name string, input any) string {
	id := fmt.Sprintf("toolu_%s_%d", s.id[len("msg_"):], s.next)
	i := s.blockStart(map[string]any{"type": "tool_use", "id": id, "name": name, "input": map[string]any{}})
	b, err := json.Marshal(input)
	if err != nil {
		panic(fmt.Sprintf("claudetest: marshal input: %v", err))
	}
	for len(b) > 0 {
		n := min(16, len(b))
		s.delta(i, map[string]any{"type": "input_json_delta", "partial_json": string(b[:n])})
		b = b[n:]
	}
	s.blockStop(i)
	return id
}

// finish ends the message with stop (end_turn, tool_use) and the output
// side of u.
func (s *stream) finish(stop string, u Usage) bool {
	s.Event("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": u.Output}})
	return s.Event("message_stop", map[string]any{})
}
