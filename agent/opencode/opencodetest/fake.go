package opencodetest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// FakeOptions tunes a FakeModel. The zero value is ready to use.
type FakeOptions struct {
	// Gap is a pause after every chunk of the quick scenarios (default
	// 5 ms, so OpenCode forwards deltas one by one).
	Gap time.Duration
	// SlowInterval is the pause between the "slow" scenario's deltas
	// (default 50 ms); SlowDeltas is how many it sends before it completes
	// (default 600, so 30 s at the default interval).
	SlowInterval time.Duration
	SlowDeltas   int
	// LongText is the answer of the "long" scenario (default: about 100 KB
	// of generated markdown, agenttest.LongMarkdown); LongChunk is the
	// size of its deltas in characters (runes), default 10; LongRate is
	// how many deltas a second it sends (0: as fast as possible, no Gap).
	LongText  string
	LongChunk int
	LongRate  float64
	// FailAttempts is how many attempts of a "retry" prompt fail before
	// one succeeds (default 1).
	FailAttempts int
	// Usage is reported at the end of every stream (default: 10 prompt
	// tokens, 2 of them cached, 5 completion tokens, 1 of them reasoning).
	Usage *Usage
}

// Usage is the token usage a response reports; total is Prompt +
// Completion.
type Usage struct {
	Prompt, Cached, Completion, Reasoning int
}

// FakeModel is a fake OpenAI-compatible chat-completions server on
// 127.0.0.1 for the real OpenCode: POST /v1/chat/completions answered as
// text/event-stream (or JSON when the request does not stream). It plays
// a scenario chosen from the request (see Scenarios) and records every
// request. It is safe for concurrent use; it stops when the test ends.
type FakeModel struct {
	srv  *agenttest.Server[Request] // records requests, counts attempts of failing scenarios
	opts FakeOptions
}

// NewFakeModel starts a fake model for t; it is closed by t.Cleanup.
func NewFakeModel(t testing.TB, opts FakeOptions) *FakeModel {
	t.Helper()
	if opts.Gap <= 0 {
		opts.Gap = 5 * time.Millisecond
	}
	if opts.SlowInterval <= 0 {
		opts.SlowInterval = 50 * time.Millisecond
	}
	if opts.SlowDeltas <= 0 {
		opts.SlowDeltas = 600
	}
	if opts.FailAttempts <= 0 {
		opts.FailAttempts = 1
	}
	if opts.Usage == nil {
		opts.Usage = &Usage{Prompt: 10, Cached: 2, Completion: 5, Reasoning: 1}
	}
	f := &FakeModel{opts: opts}
	f.srv = agenttest.NewServer[Request](t, f)
	return f
}

// URL is the provider's baseURL: it ends in "/v1" (OpenCode appends
// "/chat/completions").
func (f *FakeModel) URL() string { return f.srv.URL() + "/v1" }

// Requests returns a copy of every request received so far, in order.
func (f *FakeModel) Requests() []Request { return f.srv.Requests() }

// TurnRequests returns the requests that were a turn's model calls (not
// title requests), in order.
func (f *FakeModel) TurnRequests() []Request {
	var out []Request
	for _, r := range f.Requests() {
		if !r.IsTitle() {
			out = append(out, r)
		}
	}
	return out
}

// Close ends any stream in progress and stops the server. It is safe to
// call more than once.
func (f *FakeModel) Close() { f.srv.Close() }

// ServeHTTP answers POST .../chat/completions and GET .../models;
// anything else is 404.
func (f *FakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{map[string]any{"id": "fake-model", "object": "model"}}})
		return
	}
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "opencodetest: read body: "+err.Error(), http.StatusBadRequest)
		return
	}
	req := parseRequest(body, r.Header)
	p := choose(req)
	req.Scenario = p.name

	req = f.srv.Record(func(seq int) Request {
		req.Seq = seq
		return req
	})
	failing := false
	if p.name == "retry" || p.name == "disconnect" {
		failing = f.srv.Attempt(fmt.Sprintf("%d|%s", len(req.Prompts()), req.LastPrompt())) <= f.opts.FailAttempts
	}

	switch {
	case p.name == "model error":
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"message": ErrorMessage, "type": "invalid_request_error"}})
		return
	case failing && p.name == "retry":
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"error": map[string]any{"message": ErrorMessage, "type": "server_error"}})
		return
	}
	if !req.Stream {
		text := Title
		if p.name != "title" {
			text = PlainAnswer
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": f.id(req, "cmpl"), "object": "chat.completion", "created": 0, "model": "fake-model",
			"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": text}, "finish_reason": "stop"}},
			"usage":   f.usage()})
		return
	}
	ctx, done := f.srv.StreamContext(r)
	defer done()
	gap := f.opts.Gap
	if p.name == "long" {
		gap = 0 // the long answer keeps its own pace
	}
	s := &stream{SSE: agenttest.NewSSE(ctx, w, gap), id: f.id(req, "cmpl")}
	if p.name == "disconnect" && failing {
		s.chunk(map[string]any{"role": "assistant", "content": ""}, "", nil)
		s.text(PlainAnswer[:len(PlainAnswer)/2])
		panic(http.ErrAbortHandler) // the connection drops mid-answer
	}
	f.playScenario(s, req, p)
}

func (f *FakeModel) id(r Request, what string) string {
	return fmt.Sprintf("%s_%s_%d", what, f.srv.Tag(), r.Seq)
}

func (f *FakeModel) usage() map[string]any {
	u := f.opts.Usage
	return map[string]any{
		"prompt_tokens": u.Prompt, "completion_tokens": u.Completion, "total_tokens": u.Prompt + u.Completion,
		"prompt_tokens_details":     map[string]any{"cached_tokens": u.Cached},
		"completion_tokens_details": map[string]any{"reasoning_tokens": u.Reasoning},
	}
}

// playScenario streams the chosen scenario's answer.
func (f *FakeModel) playScenario(s *stream, req Request, p play) {
	s.chunk(map[string]any{"role": "assistant", "content": ""}, "", nil)
	finish := "stop"
	switch p.name {
	case "title":
		s.text(Title)
	case "summary":
		s.text(SummaryAnswer)
	case "followup":
		last := req.Messages[len(req.Messages)-1]
		s.text(FollowupPrefix + "\n\n```\n" + strings.TrimRight(last.Text, "\n") + "\n```\n")
	case "run":
		finish = "tool_calls"
		s.toolCall(f.id(req, "call"), "bash", map[string]any{"command": p.arg, "description": "Runs the command the user asked for"})
	case "write":
		finish = "tool_calls"
		s.toolCall(f.id(req, "call"), "write", map[string]any{"filePath": p.arg, "content": WriteContent})
	case "edit":
		finish = "tool_calls"
		s.toolCall(f.id(req, "call"), "edit", map[string]any{"filePath": p.arg, "oldString": WriteLine, "newString": EditedLine})
	case "plan":
		switch p.arg {
		case "", "0":
			finish = "tool_calls"
			s.toolCall(f.id(req, "call"), "todowrite", map[string]any{"todos": PlanTodos[0]})
		case "1":
			finish = "tool_calls"
			s.toolCall(f.id(req, "call"), "todowrite", map[string]any{"todos": PlanTodos[1]})
		default:
			s.text(PlanAnswer)
		}
	case "ask":
		finish = "tool_calls"
		s.toolCall(f.id(req, "call"), "question", askInput())
	case "slow":
		for i := 0; i < f.opts.SlowDeltas; i++ {
			if !s.chunk(map[string]any{"content": fmt.Sprintf("slow%d ", i)}, "", nil) || !s.Sleep(f.opts.SlowInterval) {
				return
			}
		}
	case "long":
		long := agenttest.LongAnswer{Text: f.opts.LongText, Chunk: f.opts.LongChunk, Rate: f.opts.LongRate}
		if !long.Stream(s.SSE, func(d string) bool { return s.chunk(map[string]any{"content": d}, "", nil) }) {
			return
		}
	case "say":
		s.text(p.arg)
	default: // plain, retry after its failures
		half := len(PlainReasoning) / 2
		s.chunk(map[string]any{"reasoning_content": PlainReasoning[:half]}, "", nil)
		s.chunk(map[string]any{"reasoning_content": PlainReasoning[half:]}, "", nil)
		s.text(PlainAnswer)
	}
	s.chunk(map[string]any{}, finish, f.usage())
	s.done()
}

// askInput is the question tool's input of "ask user".
func askInput() map[string]any {
	opts := []any{
		map[string]any{"label": AskOptions[0], "description": "a server, for many writers"},
		map[string]any{"label": AskOptions[1], "description": "a file, for one writer"},
	}
	return map[string]any{"questions": []any{map[string]any{"question": AskQuestion, "header": AskHeader, "options": opts}}}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(b)
}

// stream writes one chat-completions answer as server-sent events
// ("data: JSON" lines, then "data: [DONE]"). After a write fails, or the
// request's context or the fake ends, every method is a no-op returning
// false.
type stream struct {
	*agenttest.SSE
	id string
}

// chunk writes one chat.completion.chunk with delta, finish reason ("" for
// none) and usage (nil for none).
func (s *stream) chunk(delta map[string]any, finish string, usage map[string]any) bool {
	choice := map[string]any{"index": 0, "delta": delta, "finish_reason": nil}
	if finish != "" {
		choice["finish_reason"] = finish
	}
	c := map[string]any{"id": s.id, "object": "chat.completion.chunk", "created": 0, "model": "fake-model", "choices": []any{choice}}
	if usage != nil {
		c["usage"] = usage
	}
	b, _ := json.Marshal(c)
	return s.Data(string(b))
}

// text streams text in pieces of a few words.
func (s *stream) text(text string) bool {
	for _, piece := range pieces(text) {
		if !s.chunk(map[string]any{"content": piece}, "", nil) {
			return false
		}
	}
	return true
}

// toolCall streams one function call, its arguments in two pieces.
func (s *stream) toolCall(id, name string, args map[string]any) bool {
	b, _ := json.Marshal(args)
	a := string(b)
	half := len(a) / 2
	return s.chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": id, "type": "function",
		"function": map[string]any{"name": name, "arguments": ""}}}}, "", nil) &&
		s.chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "function": map[string]any{"arguments": a[:half]}}}}, "", nil) &&
		s.chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "function": map[string]any{"arguments": a[half:]}}}}, "", nil)
}

func (s *stream) done() { _ = s.Data("[DONE]") }

// pieces cuts text into runs of about three words, keeping every byte.
func pieces(text string) []string {
	var out []string
	words := strings.SplitAfter(text, " ")
	for i := 0; i < len(words); i += 3 {
		out = append(out, strings.Join(words[i:min(i+3, len(words))], ""))
	}
	return out
}
