// Package opencode bridges Lookout's host to OpenCode: the host runs one
// `opencode serve` on a private loopback port (or attaches to a running
// server), follows its event stream and drives it over its HTTP API. Each
// Lookout session is one OpenCode session; message parts, permissions,
// status, errors and usage become host items, deltas, approvals, turn
// outcomes, warnings and session state (docs/agents.md).
package opencode

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/lookout-sh/lookout/agent/bridge"
	"github.com/lookout-sh/lookout/host"
)

// Session state names the bridge writes.
const (
	// stateSession holds the OpenCode session id: with it a restarted host
	// (or a restarted server) continues the same conversation.
	stateSession = "agentSessionId"
	stateCwd     = "cwd"
	stateModel   = "model"
	stateUsage   = "usage"
	stateTitle   = bridge.StateTitle
	// stateCost is what OpenCode reckons the session has cost, in USD.
	stateCost = "costUsd"
)

// Agent is the OpenCode bridge, a host.Agent. It starts (or attaches to)
// one OpenCode server for all sessions on the first turn and keeps it; a
// turn that finds the server gone starts (or reaches) it anew and
// continues the session's OpenCode session. It is safe for concurrent use.
type Agent struct {
	opts Options
	log  *slog.Logger

	startMu sync.Mutex // one connect at a time

	mu       sync.Mutex
	srv      *server
	sessions map[string]*session // by Lookout session id
	byOC     map[string]*session // by OpenCode session id
	closed   bool
}

// New returns a bridge running opts.Bin (or attaching to opts.URL). It
// starts nothing until a turn runs.
func New(opts Options) *Agent {
	if opts.InterruptGrace <= 0 {
		opts.InterruptGrace = 5 * time.Second
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 2 * time.Minute
	}
	if opts.Cwd == "" {
		opts.Cwd, _ = os.Getwd()
	}
	return &Agent{opts: opts, log: bridge.Logger(opts.Logger), sessions: map[string]*session{}, byOC: map[string]*session{}}
}

// errClosedAgent refuses turns once the bridge is closed.
var errClosedAgent = errors.New("the opencode bridge is shut down")

// Launch refuses turns after Close; everything else is found out by Run.
func (a *Agent) Launch(string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return errClosedAgent
	}
	return nil
}

// Run carries out one Lookout turn as one OpenCode prompt.
func (a *Agent) Run(ctx context.Context, t *host.Turn) error {
	act := bridge.NewActivity(t)
	defer act.Done()
	if !a.serverLive() {
		act.Say("starting the OpenCode server")
	}
	srv, err := a.server(ctx)
	if err != nil {
		return bridge.StartFailure(ctx, err)
	}
	s := a.session(t)
	if !s.openOn(srv) {
		act.Say("opening the OpenCode session")
	}
	octx, cancel := context.WithTimeout(ctx, 30*time.Second)
	err = s.open(octx, t, srv)
	cancel()
	if err != nil {
		if ctx.Err() == nil && !srv.alive() {
			return &host.TurnFailure{Code: "agentExited", Message: "the OpenCode server stopped: " + srv.reason}
		}
		return bridge.StartFailure(ctx, err)
	}
	act.Done()
	s.readCommandsOnce(srv)
	return s.runTurn(ctx, t, srv)
}

// serverLive reports whether a server is up already (a turn then starts
// at once, with nothing to say meanwhile).
func (a *Agent) serverLive() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.srv != nil && a.srv.alive()
}

// Close stops the server the bridge started (or leaves the one it
// attached to) and waits for it to exit.
func (a *Agent) Close() error {
	a.mu.Lock()
	a.closed = true
	srv := a.srv
	a.srv = nil
	a.mu.Unlock()
	a.startMu.Lock() // wait for a start in progress, which then finds closed
	defer a.startMu.Unlock()
	if srv != nil {
		srv.shutdown()
	}
	return nil
}

// server returns the live server, starting (or reaching) one when there is
// none.
func (a *Agent) server(ctx context.Context) (*server, error) {
	a.startMu.Lock()
	defer a.startMu.Unlock()
	a.mu.Lock()
	srv, closed := a.srv, a.closed
	a.mu.Unlock()
	if closed {
		return nil, errClosedAgent
	}
	if srv != nil && srv.alive() {
		return srv, nil
	}
	srv, err := a.connect(ctx)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		srv.shutdown()
		return nil, errClosedAgent
	}
	a.srv = srv
	a.mu.Unlock()
	return srv, nil
}

// session returns the bridge's record of t's session.
func (a *Agent) session(t *host.Turn) *session {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.sessions[t.SessionID()]
	if s == nil {
		s = newSession(a, t.Session())
		a.sessions[t.SessionID()] = s
	}
	return s
}

// index files s under its OpenCode session id.
func (a *Agent) index(s *session, old, id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if old != "" && a.byOC[old] == s {
		delete(a.byOC, old)
	}
	a.byOC[id] = s
}

// route hands one event to the session it names.
func (a *Agent) route(srv *server, ev event) {
	id := sessionOf(ev.Properties)
	if id == "" {
		return
	}
	a.mu.Lock()
	s := a.byOC[id]
	a.mu.Unlock()
	if s != nil {
		s.handle(srv, ev)
	}
}

// activeTurns lists the turns running on srv.
func (a *Agent) activeTurns(srv *server) []*turnState {
	a.mu.Lock()
	sessions := make([]*session, 0, len(a.sessions))
	for _, s := range a.sessions {
		sessions = append(sessions, s)
	}
	a.mu.Unlock()
	var out []*turnState
	for _, s := range sessions {
		if ts := s.turns.Current(); ts != nil && ts.srv == srv {
			out = append(out, ts)
		}
	}
	return out
}

// serverEnded fails every turn running on a server that went away.
func (a *Agent) serverEnded(srv *server) {
	a.mu.Lock()
	if a.srv == srv {
		a.srv = nil
	}
	a.mu.Unlock()
	for _, ts := range a.activeTurns(srv) {
		ts.finish(srv.exitFailure())
	}
}

// exitFailure is the turn failure of a server that went away.
func (srv *server) exitFailure() error {
	what := "the OpenCode server at " + srv.c.base
	if srv.p != nil {
		what = "opencode serve"
	}
	return &host.TurnFailure{Code: "agentExited", Message: what + " stopped mid-turn: " + srv.reason}
}
