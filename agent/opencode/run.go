package opencode

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/lookout-sh/lookout/agent/bridge"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// runTurn sends t's prompt to the OpenCode session and waits for the
// session to go idle (bridge.RunTurn). Cancelling ctx aborts the OpenCode
// turn.
func (s *session) runTurn(ctx context.Context, t *host.Turn, srv *server) error {
	if t.AgentCommand() == "" {
		bridge.DefaultTitle(s.sess, t.Prompt())
	}
	ts := newTurnState(s, srv, t, ctx)
	s.turns.Begin(ts) // never dead: srv.alive says
	defer func() {
		s.turns.End(ts)
		ts.cancelApprovals()
	}()
	if !srv.alive() {
		return srv.exitFailure()
	}

	s.waitSettled(ctx)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	s.mu.Lock()
	d := openCodeTurn{ts: ts, id: s.ocID, dir: s.dir}
	s.mu.Unlock()
	err := bridge.RunTurn(ctx, ts.outcome, d, bridge.TurnOptions{Grace: s.a.opts.InterruptGrace, Within: srv.ctx})
	s.a.log.Debug("opencode turn ended", "session", s.sess.ID(), "err", err)
	if err == nil {
		ts.showPatches(srv, d.id, d.dir)
	}
	return err
}

// openCodeTurn is a turn's bridge.TurnDriver: prompt_async, abort.
type openCodeTurn struct {
	ts      *turnState
	id, dir string // the OpenCode session and its directory
}

// Send posts the prompt; it is accepted at once (204).
func (d openCodeTurn) Send() error {
	if name := d.ts.t.AgentCommand(); name != "" {
		return d.sendCommand(name)
	}
	srv := d.ts.srv
	pctx, cancel := context.WithTimeout(srv.ctx, 30*time.Second)
	defer cancel()
	err := srv.c.do(pctx, "POST", "/session/"+d.id+"/prompt_async", d.dir,
		map[string]any{"parts": []any{map[string]any{"type": "text", "text": d.ts.t.Prompt()}}}, nil)
	if err == nil {
		d.ts.s.a.log.Debug("opencode prompt sent", "session", d.ts.s.sess.ID(), "opencode", d.id)
	}
	return err
}

// Refused: OpenCode answered the prompt with an error, or did not answer:
// the server may be going away, and its stream would say so.
func (openCodeTurn) Refused(err error) (time.Duration, error) {
	wait := time.Duration(0)
	if !errors.As(err, new(*apiError)) {
		wait = 2 * time.Second
	}
	return wait, &host.TurnFailure{Code: "agentError", Message: "OpenCode refused the prompt: " + err.Error()}
}

func (d openCodeTurn) Interrupt(ctx context.Context) {
	if err := d.ts.srv.c.do(ctx, "POST", "/session/"+d.id+"/abort", d.dir, nil, nil); err != nil {
		d.ts.s.a.log.Warn("opencode abort failed", "session", d.ts.s.sess.ID(), "err", err)
	}
}

// Overdue: the turn ends anyway; the shared server is not killed for it.
func (d openCodeTurn) Overdue() {
	d.ts.s.a.log.Warn("opencode did not end an aborted turn in time", "session", d.ts.s.sess.ID())
}

// showPatches records the files OpenCode's snapshots saw change in the
// turn that no edit or write showed (a command's changes, say) as one
// fileChange, with the diffs of GET /session/{id}/diff.
func (ts *turnState) showPatches(srv *server, id, dir string) {
	ts.mu.Lock()
	want := map[string]bool{}
	for _, f := range ts.patched {
		if !ts.shown[f] {
			want[f] = true
		}
	}
	userMsg := ts.userMsg
	ts.mu.Unlock()
	if len(want) == 0 || userMsg == "" {
		return
	}
	ctx, cancel := context.WithTimeout(srv.ctx, 10*time.Second)
	defer cancel()
	var diffs []fileDiff
	if err := srv.c.do(ctx, "GET", "/session/"+id+"/diff?messageID="+userMsg, dir, nil, &diffs); err != nil {
		ts.s.a.log.Warn("opencode diff not read", "session", ts.s.sess.ID(), "err", err)
		return
	}
	// The diff names files relative to the project; patch parts name them
	// absolutely.
	var keep []fileDiff
	for _, d := range diffs {
		for abs := range want {
			if abs == d.File || strings.HasSuffix(abs, "/"+d.File) {
				d.File = abs
				keep = append(keep, d)
				break
			}
		}
	}
	if changes := patchChanges(keep, nil); len(changes) > 0 {
		_, _ = ts.t.RecordItem(model.KindFileChange, model.StatusCompleted, map[string]any{"changes": changes})
	}
}
