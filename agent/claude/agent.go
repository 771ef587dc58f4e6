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
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
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
	stateTitle   = "title"
)

// Agent is the Claude Code bridge, a host.Agent. It starts one Claude Code
// per session on the session's first turn and keeps it for the next ones;
// a turn that finds its Claude Code gone starts a new one that resumes the
// session. It is safe for concurrent use.
type Agent struct {
	opts Options
	log  *slog.Logger

	mu       sync.Mutex
	sessions map[string]*session // by Lookout session id
	closed   bool
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
	return &Agent{opts: opts, log: log, sessions: map[string]*session{}}
}

// errClosedAgent refuses turns once the bridge is closed.
var errClosedAgent = errors.New("the claude code bridge is shut down")

// Launch refuses turns after Close; everything else is found out by Run.
func (a *Agent) Launch(string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return errClosedAgent
	}
	return nil
}

// Run carries out one Lookout turn as one Claude Code turn.
func (a *Agent) Run(ctx context.Context, t *host.Turn) error {
	s, err := a.session(ctx, t)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &host.TurnFailure{Code: "agentStartFailed", Message: err.Error()}
	}
	return s.runTurn(ctx, t)
}

// Close stops every Claude Code and waits for them to exit.
func (a *Agent) Close() error {
	a.mu.Lock()
	a.closed = true
	sessions := make([]*session, 0, len(a.sessions))
	for _, s := range a.sessions {
		sessions = append(sessions, s)
	}
	a.sessions = map[string]*session{}
	a.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.p.Stop(time.Second)
		}()
	}
	wg.Wait()
	return nil
}

// session returns the Lookout session's live Claude Code, starting one
// when there is none: it resumes the session's Claude Code session when
// the session has one, in the directory the session works in.
func (a *Agent) session(ctx context.Context, t *host.Turn) (*session, error) {
	sid := t.SessionID()
	a.mu.Lock()
	s := a.sessions[sid]
	closed := a.closed
	a.mu.Unlock()
	if closed {
		return nil, errClosedAgent
	}
	if s != nil && s.alive() {
		return s, nil
	}
	hs := t.Session()
	cwd := a.opts.Cwd
	if v := jsonString(hs.Value(stateCwd)); v != "" {
		cwd = v
	}
	id := jsonString(hs.Value(stateSession))
	p, err := startProcess(ctx, a.opts, cwd, id)
	if errors.Is(err, errNoConversation) {
		// The session is gone (another CLAUDE_CONFIG_DIR, a deleted
		// transcript): say so, and carry on in a new session rather than
		// refuse every turn.
		t.Warning(model.Warning{RequestKind: "agent", Code: "sessionNotResumed",
			Message: fmt.Sprintf("Claude Code could not resume session %s (%v); this turn starts a new Claude Code session without the earlier context", id, err)})
		p, err = startProcess(ctx, a.opts, cwd, "")
	}
	if err != nil {
		return nil, err
	}
	s = newSession(a, hs, p)
	if jsonString(hs.Value(stateCwd)) != cwd {
		hs.SetState(map[string]any{stateCwd: cwd})
	}
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		p.Kill()
		return nil, errClosedAgent
	}
	a.sessions[sid] = s
	a.mu.Unlock()
	return s, nil
}

// forget drops a session whose Claude Code has gone.
func (a *Agent) forget(s *session) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.sessions[s.sess.ID()] == s {
		delete(a.sessions, s.sess.ID())
	}
}
