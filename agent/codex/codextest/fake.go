package codextest

import (
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
	// Codex forwards each delta as its own notification either way.
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
	// FailAttempts is how many attempts of a "retry" or "disconnect" turn
	// fail before one succeeds (default 1). Codex only tries again when its
	// CODEX_HOME allows it (HomeOptions.StreamRetries).
	FailAttempts int
	// Usage is reported in every response.completed (default: 10 input
	// tokens, 0 cached, 5 output, 1 reasoning).
	Usage *Usage
}

// Usage is the token usage a response reports; total is Input + Output.
type Usage struct {
	Input, Cached, Output, Reasoning int
}

// FakeModel is a fake OpenAI Responses API server on 127.0.0.1 for the
// real Codex: POST /v1/responses answered as text/event-stream. It plays
// a scenario chosen from the request (see Scenarios) and records every
// request. It is safe for concurrent use; it stops when the test ends.
type FakeModel struct {
	srv  *agenttest.Server[Request] // records requests, counts attempts of failing scenarios
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
		opts.Usage = &Usage{Input: 10, Cached: 0, Output: 5, Reasoning: 1}
	}
	f := &FakeModel{opts: opts}
	f.srv = agenttest.NewServer[Request](t, f)
	return f
}

// URL is the base URL to configure as the provider's base_url: it ends in
// "/v1" (Codex appends "/responses").
func (f *FakeModel) URL() string { return f.srv.URL() + "/v1" }

// Requests returns a copy of every request received so far, in order.
func (f *FakeModel) Requests() []Request { return f.srv.Requests() }

// Close ends any stream in progress and stops the server. It is safe to
// call more than once.
func (f *FakeModel) Close() { f.srv.Close() }

// ServeHTTP answers POST /v1/responses; anything else is 404.
func (f *FakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "codextest: read body: "+err.Error(), http.StatusBadRequest)
		return
	}
	req := parseRequest(body, r.Header)
	play := choose(req)
	req.Scenario = play.name

	req = f.srv.Record(func(seq int) Request {
		req.Seq = seq
		return req
	})
	failing := false
	if play.name == "retry" || play.name == "disconnect" {
		// A retried attempt may carry items the failed one completed, so
		// the key is the turn and its prompt, not the whole input.
		failing = f.srv.Attempt(req.TurnID+"|"+req.LastPrompt()) <= f.opts.FailAttempts
	}

	ctx, done := f.srv.StreamContext(r)
	defer done()

	if play.name == "http 500" || (play.name == "retry" && failing) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"error":{"message":"fake upstream failure","type":"server_error","code":"server_error"}}`)
		return
	}
	s := newStream(ctx, w, fmt.Sprintf("resp_%s_%d", f.srv.Tag(), req.Seq), f.opts.Gap)
	f.playScenario(s, req, play, failing)
}
