package codextest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
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
	// of generated markdown); LongChunk is the size of its deltas in
	// characters (runes), default 10. They are sent as fast as possible.
	LongText  string
	LongChunk int
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
	srv  *httptest.Server
	opts FakeOptions
	run  string // random tag in every minted id, unique per FakeModel

	closing chan struct{}
	ctx     context.Context // ends when the fake closes
	stop    context.CancelFunc

	mu       sync.Mutex
	reqs     []Request
	attempts map[string]int // failing scenarios: attempts seen per turn
	closed   bool
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
	if opts.LongChunk <= 0 {
		opts.LongChunk = 10
	}
	if opts.LongText == "" {
		opts.LongText = defaultLongText()
	}
	if opts.FailAttempts <= 0 {
		opts.FailAttempts = 1
	}
	if opts.Usage == nil {
		opts.Usage = &Usage{Input: 10, Cached: 0, Output: 5, Reasoning: 1}
	}
	var tag [3]byte
	if _, err := rand.Read(tag[:]); err != nil {
		t.Fatalf("codextest: random id tag: %v", err)
	}
	f := &FakeModel{opts: opts, run: hex.EncodeToString(tag[:]), attempts: map[string]int{}}
	f.ctx, f.stop = context.WithCancel(context.Background())
	f.srv = httptest.NewServer(f) // httptest listens on 127.0.0.1
	t.Cleanup(f.Close)
	return f
}

// URL is the base URL to configure as the provider's base_url: it ends in
// "/v1" (Codex appends "/responses").
func (f *FakeModel) URL() string { return f.srv.URL + "/v1" }

// Requests returns a copy of every request received so far, in order.
func (f *FakeModel) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.reqs...)
}

// Close ends any stream in progress and stops the server. It is safe to
// call more than once.
func (f *FakeModel) Close() {
	f.mu.Lock()
	closed := f.closed
	f.closed = true
	f.mu.Unlock()
	if closed {
		return
	}
	f.stop()
	f.srv.CloseClientConnections()
	f.srv.Close()
}

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

	f.mu.Lock()
	req.Seq = len(f.reqs) + 1
	f.reqs = append(f.reqs, req)
	failing := false
	if play.name == "retry" || play.name == "disconnect" {
		// A retried attempt may carry items the failed one completed, so
		// the key is the turn and its prompt, not the whole input.
		key := req.TurnID + "|" + req.LastPrompt()
		f.attempts[key]++
		failing = f.attempts[key] <= f.opts.FailAttempts
	}
	f.mu.Unlock()

	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stopOnClose := context.AfterFunc(f.ctx, cancel)
	defer stopOnClose()

	if play.name == "http 500" || (play.name == "retry" && failing) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"error":{"message":"fake upstream failure","type":"server_error","code":"server_error"}}`)
		return
	}
	s := newStream(ctx, w, fmt.Sprintf("resp_%s_%d", f.run, req.Seq), f.opts.Gap)
	f.playScenario(s, req, play, failing)
}
