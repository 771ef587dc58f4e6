// Package codex bridges Lookout's host to the Codex CLI: each Lookout
// session is one Codex thread, run by a `codex app-server` child of its own
// that speaks JSON-RPC over stdio. The bridge turns Codex's items, deltas,
// approvals, errors and usage into host turns, items, deltas, approvals,
// warnings and session state (docs/agents.md).
package codex

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"time"

	"github.com/lookout-sh/lookout/agent/bridge"
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
	stateTitle  = bridge.StateTitle
)

// Agent is the Codex bridge, a host.Agent. It starts one app-server per
// session on the session's first turn and keeps it for the next ones; a
// turn that finds its app-server gone starts a new one and resumes the
// thread. It is safe for concurrent use.
type Agent struct {
	opts    Options
	log     *slog.Logger
	threads *bridge.Registry[*thread] // by Lookout session id
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
	return &Agent{opts: opts, log: bridge.Logger(opts.Logger), threads: bridge.NewRegistry[*thread](errClosedAgent)}
}

// errClosedAgent refuses turns once the bridge is closed.
var errClosedAgent = errors.New("the codex bridge is shut down")

// Launch refuses turns after Close; everything else is found out by Run.
func (a *Agent) Launch(string) error { return a.threads.Err() }

// Run carries out one Lookout turn as one Codex turn.
func (a *Agent) Run(ctx context.Context, t *host.Turn) error {
	th, err := a.thread(ctx, t)
	if err != nil {
		return bridge.StartFailure(ctx, err)
	}
	return th.runTurn(ctx, t)
}

// Close stops every app-server and waits for them to exit.
func (a *Agent) Close() error {
	a.threads.Close(func(th *thread) { th.p.Stop(time.Second) })
	return nil
}

// EndSession stops the app-server of a deleted session (host.SessionEnder).
func (a *Agent) EndSession(sessionID string) {
	if th, ok := a.threads.Remove(sessionID); ok {
		th.p.Stop(time.Second)
	}
}

// thread returns the session's live thread, starting an app-server and
// starting or resuming its Codex thread when there is none.
func (a *Agent) thread(ctx context.Context, t *host.Turn) (*thread, error) {
	sid := t.SessionID()
	th, err := a.threads.Get(sid)
	if err != nil {
		return nil, err
	}
	if th != nil && th.turns.Alive() {
		return th, nil
	}
	sess := t.Session()
	cwd := a.opts.Cwd
	if v := bridge.JSONString(sess.Value(stateCwd)); v != "" {
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
	if err := a.threads.Add(sid, th); err != nil {
		p.Kill()
		return nil, err
	}
	return th, nil
}
