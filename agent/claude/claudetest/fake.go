package claudetest

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
	// Gap is a pause after every event of the quick scenarios (0: none).
	Gap time.Duration
	// SlowInterval is the pause between the "slow" scenario's deltas
	// (default 50 ms); SlowDeltas is how many it sends before it completes
	// (default 600, so 30 s at the default interval).
	SlowInterval time.Duration
	SlowDeltas   int
	// LongText is the answer of the "long" scenario (default: about 100 KB
	// of generated markdown, agenttest.LongMarkdown); LongChunk is the
	// size of its deltas in characters (runes), default 10; LongRate is
	// how many deltas a second it sends (0: as fast as possible).
	LongText  string
	LongChunk int
	LongRate  float64
	// FailAttempts is how many attempts of a "retry" prompt fail before
	// one succeeds (default 1). Claude Code only tries again when its
	// CLAUDE_CODE_MAX_RETRIES allows it (HomeOptions.MaxRetries).
	FailAttempts int
	// Usage is reported by every answer (default: 100 input tokens, 20
	// read from the cache, 0 written to it, 12 output).
	Usage *Usage
}

// Usage is the token usage an answer reports: Input, CacheRead and
// CacheCreation in message_start, Output in message_delta.
type Usage struct {
	Input, CacheRead, CacheCreation, Output int
}

// FakeModel is a fake Anthropic Messages API on 127.0.0.1 for the real
// Claude Code: POST /v1/messages answered as text/event-stream. It plays
// a scenario chosen from the request (see Scenarios) and records every
// request. It is safe for concurrent use; it stops when the test ends.
type FakeModel struct {
	srv  *agenttest.Server[Request] // records requests, counts attempts of "retry" prompts
	opts FakeOptions
}

// NewFakeModel starts a fake model for t; it is closed by t.Cleanup.
func NewFakeModel(t testing.TB, opts FakeOptions) *FakeModel {
	t.Helper()
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
		opts.Usage = &Usage{Input: 100, CacheRead: 20, Output: 12}
	}
	f := &FakeModel{opts: opts}
	f.srv = agenttest.NewServer[Request](t, f)
	return f
}

// URL is the base URL to give Claude Code as ANTHROPIC_BASE_URL (it
// appends "/v1/messages").
func (f *FakeModel) URL() string { return f.srv.URL() }

// Requests returns a copy of every model request received so far, in
// order.
func (f *FakeModel) Requests() []Request { return f.srv.Requests() }

// Close ends any stream in progress and stops the server. It is safe to
// call more than once.
func (f *FakeModel) Close() { f.srv.Close() }

// ServeHTTP answers POST /v1/messages (and count_tokens); HEAD is 200,
// anything else 404.
func (f *FakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodHead:
		w.WriteHeader(http.StatusOK)
		return
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		writeJSON(w, http.StatusOK, map[string]any{"input_tokens": 42})
		return
	case r.Method != http.MethodPost || r.URL.Path != "/v1/messages":
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "claudetest: read body: "+err.Error(), http.StatusBadRequest)
		return
	}
	req := parseRequest(body, r.Header)
	p := choose(req)
	req.Scenario, req.Arg = p.name, p.arg

	req = f.srv.Record(func(seq int) Request {
		req.Seq = seq
		return req
	})
	failing := false
	if p.name == "retry" {
		// Every attempt carries the same conversation: count by session
		// and prompt.
		failing = f.srv.Attempt(req.SessionID+"|"+req.LastPrompt()) <= f.opts.FailAttempts
	}

	switch {
	case p.name == "http 500" || failing:
		writeError(w, http.StatusInternalServerError, "api_error", ErrorMessage)
		return
	case p.name == "model error":
		writeError(w, http.StatusBadRequest, "invalid_request_error", BadRequestMessage)
		return
	}
	ctx, done := f.srv.StreamContext(r)
	defer done()
	model := req.Model
	if model == "" {
		model = "claude-fake"
	}
	s := newStream(ctx, w, fmt.Sprintf("msg_%s_%d", f.srv.Tag(), req.Seq), model, f.opts.Gap)
	f.playScenario(s, req, p)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(b)
}

// writeError answers with an Anthropic error body.
func writeError(w http.ResponseWriter, code int, typ, msg string) {
	w.Header().Set("Request-Id", "req_fake_error")
	writeJSON(w, code, map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
}

// words splits s into deltas at spaces, keeping the spaces.
func words(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s[1:], ' ')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}
