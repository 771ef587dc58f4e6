// Package codex bridges Lookout's host to the Codex CLI: each Lookout
// session is one Codex thread, run by a `codex app-server` child of its own
// that speaks JSON-RPC over stdio. The bridge turns Codex's items, deltas,
// approvals, errors and usage into host turns, items, deltas, approvals,
// warnings and session state (docs/agents.md).
package codex

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/lookout-sh/lookout/agent/child"
	"github.com/lookout-sh/lookout/host"
)

// Session state names the bridge writes.
const (
	// stateThread holds the Codex thread id: with it a restarted host (or
	// a fresh app-server) resumes the same conversation.
	stateThread = "agentSessionId"
	stateCwd    = "cwd"
	stateModel  = "model"
	stateUsage  = "usage"
	stateTitle  = "title"
)

// Agent is the Codex bridge, a host.Agent. It starts one app-server per
// session on the session's first turn and keeps it for the next ones; a
// turn that finds its app-server gone starts a new one and resumes the
// thread. It is safe for concurrent use.
type Agent struct {
	opts Options
	log  *slog.Logger

	mu      sync.Mutex
	threads map[string]*thread // by Lookout session id
	closed  bool
}

// New returns a bridge running opts.Bin. It starts nothing until a turn
// runs.
func New(opts Options) *Agent {
	if opts.InterruptGrace <= 0 {
		opts.InterruptGrace = 5 * time.Second
	}
	if opts.Cwd == "" {
		opts.Cwd, _ = os.Getwd()
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Agent{opts: opts, log: log, threads: map[string]*thread{}}
}

// errClosedAgent refuses turns once the bridge is closed.
var errClosedAgent = errors.New("the codex bridge is shut down")

// Launch refuses turns after Close; everything else is found out by Run.
func (a *Agent) Launch(string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return errClosedAgent
	}
	return nil
}

// Run carries out one Lookout turn as one Codex turn.
func (a *Agent) Run(ctx context.Context, t *host.Turn) error {
	th, err := a.thread(ctx, t)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &host.TurnFailure{Code: "agentStartFailed", Message: err.Error()}
	}
	return th.runTurn(ctx, t)
}

// Close stops every app-server and waits for them to exit.
func (a *Agent) Close() error {
	a.mu.Lock()
	a.closed = true
	threads := make([]*thread, 0, len(a.threads))
	for _, th := range a.threads {
		threads = append(threads, th)
	}
	a.threads = map[string]*thread{}
	a.mu.Unlock()
	var wg sync.WaitGroup
	for _, th := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			th.p.Stop(time.Second)
		}()
	}
	wg.Wait()
	return nil
}

// thread returns the session's live thread, starting an app-server and
// starting or resuming its Codex thread when there is none.
func (a *Agent) thread(ctx context.Context, t *host.Turn) (*thread, error) {
	sid := t.SessionID()
	a.mu.Lock()
	th := a.threads[sid]
	closed := a.closed
	a.mu.Unlock()
	if closed {
		return nil, errClosedAgent
	}
	if th != nil && th.alive() {
		return th, nil
	}
	sess := t.Session()
	cwd := a.opts.Cwd
	if v := jsonString(sess.Value(stateCwd)); v != "" {
		cwd = v
	}
	p, err := startProcess(ctx, a.opts, cwd)
	if err != nil {
		return nil, err
	}
	th = newThread(a, sess, p)
	if err := th.open(ctx, t, cwd); err != nil {
		p.Kill()
		return nil, err
	}
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		p.Kill()
		return nil, errClosedAgent
	}
	a.threads[sid] = th
	a.mu.Unlock()
	return th, nil
}

// forget drops a thread whose app-server has gone.
func (a *Agent) forget(th *thread) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.threads[th.sess.ID()] == th {
		delete(a.threads, th.sess.ID())
	}
}

func jsonString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// titleFrom makes a session title of a prompt's first line.
func titleFrom(prompt string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(prompt), "\n")
	return child.Cut(strings.TrimSpace(line), 80)
}
