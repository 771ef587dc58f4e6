// Package claude bridges Lookout's host to Claude Code: each Lookout
// session is one Claude Code session, run by a `claude -p` child of its own
// that reads user messages and control requests as stream-json on stdin
// and writes its events as stream-json on stdout. The bridge turns Claude
// Code's streamed blocks, tool calls, permission prompts, retries,
// compactions, results and usage into host turns, items, deltas,
// approvals, warnings and session state (docs/agents.md).
package claude

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/lookout-sh/lookout/agent/bridge"
	"github.com/lookout-sh/lookout/host"
)

// Session state names the bridge writes.
const (
	// stateSession holds the Claude Code session id: with it a restarted
	// host (or a fresh Claude Code) resumes the same conversation.
	stateSession = "agentSessionId"
	stateCwd     = "cwd"
	stateModel   = "model"
	stateUsage   = "usage"
	stateCost    = "costUsd"
)

// Agent is the Claude Code bridge, a host.Agent. It starts one Claude Code
// per session on the session's first turn and keeps it for the next ones;
// a turn that finds its Claude Code gone starts a new one that resumes the
// session. It is safe for concurrent use.
type Agent struct {
	opts     Options
	log      *slog.Logger
	sessions *bridge.Registry[*session] // by Lookout session id
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
	return &Agent{opts: opts, log: bridge.Logger(opts.Logger), sessions: bridge.NewRegistry[*session](errClosedAgent)}
}

// errClosedAgent refuses turns once the bridge is closed.
var errClosedAgent = errors.New("the claude code bridge is shut down")

// Launch refuses turns after Close; everything else is found out by Run.
func (a *Agent) Launch(string) error { return a.sessions.Err() }

// Run carries out one Lookout turn as one Claude Code turn.
func (a *Agent) Run(ctx context.Context, t *host.Turn) error {
	s, err := a.session(ctx, t)
	if err != nil {
		return bridge.StartFailure(ctx, err)
	}
	return s.runTurn(ctx, t)
}

// Close stops every Claude Code and waits for them to exit.
func (a *Agent) Close() error {
	a.sessions.Close(func(s *session) { s.p.Stop(time.Second) })
	return nil
}

// EndSession stops the Claude Code of a deleted session
// (host.SessionEnder).
func (a *Agent) EndSession(sessionID string) {
	if s, ok := a.sessions.Remove(sessionID); ok {
		s.p.Stop(time.Second)
	}
}

// session returns the Lookout session's live Claude Code, starting one
// when there is none: it resumes the session's Claude Code session when
// the session has one, in the directory the session works in.
func (a *Agent) session(ctx context.Context, t *host.Turn) (*session, error) {
	sid := t.SessionID()
	s, err := a.sessions.Get(sid)
	if err != nil {
		return nil, err
	}
	if s != nil && s.turns.Alive() {
		return s, nil
	}
	hs := t.Session()
	cwd := a.opts.Cwd
	if v := bridge.JSONString(hs.Value(stateCwd)); v != "" {
		cwd = v
	}
	id := bridge.JSONString(hs.Value(stateSession))
	p, err := startProcess(ctx, a.opts, cwd, id)
	if errors.Is(err, errNoConversation) {
		// The session is gone (another CLAUDE_CONFIG_DIR, a deleted
		// transcript): say so, and carry on in a new session rather than
		// refuse every turn.
		bridge.ContextLost(t, "sessionNotResumed",
			fmt.Sprintf("Claude Code could not resume session %s (%v); this turn starts a new Claude Code session without the earlier context", id, err))
		p, err = startProcess(ctx, a.opts, cwd, "")
	}
	if err != nil {
		return nil, err
	}
	s = newSession(a, hs, p)
	if bridge.JSONString(hs.Value(stateCwd)) != cwd {
		_ = hs.SetState(map[string]any{stateCwd: cwd})
	}
	if p.commands != nil {
		_ = hs.SetCommands(p.commands)
	}
	if err := a.sessions.Add(sid, s); err != nil {
		p.Kill()
		return nil, err
	}
	return s, nil
}
