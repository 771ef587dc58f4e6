package opencode

import (
	"context"
	"strings"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// runTurn sends t's prompt to the OpenCode session and waits for the
// session to go idle. Cancelling ctx aborts the OpenCode turn.
func (s *session) runTurn(ctx context.Context, t *host.Turn, srv *server) error {
	if len(s.sess.Value(stateTitle)) == 0 {
		_ = s.sess.SetState(map[string]any{stateTitle: titleFrom(t.Prompt())})
	}
	ts := newTurnState(s, srv, t, ctx)
	s.mu.Lock()
	s.active = ts
	id, dir := s.ocID, s.dir
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.active == ts {
			s.active = nil
		}
		s.mu.Unlock()
		ts.cancelApprovals()
	}()
	if !srv.alive() {
		return srv.exitFailure()
	}

	s.waitSettled(ctx)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	// The prompt is accepted at once (204); it is not cut short by an
	// early interrupt, so that the turn it starts is known and can be
	// aborted.
	pctx, cancel := context.WithTimeout(srv.ctx, 30*time.Second)
	err := srv.c.do(pctx, "POST", "/session/"+id+"/prompt_async", dir,
		map[string]any{"parts": []any{map[string]any{"type": "text", "text": t.Prompt()}}}, nil)
	cancel()
	if err != nil {
		wait := time.Duration(0)
		if _, answered := err.(*apiError); !answered {
			wait = 2 * time.Second // the server may be going away: let its stream say
		}
		select {
		case <-ts.outcome.Done(): // the server went away
			return ts.outcome.Err()
		case <-time.After(wait):
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &host.TurnFailure{Code: "agentError", Message: "OpenCode refused the prompt: " + err.Error()}
	}

	s.a.log.Debug("opencode prompt sent", "session", s.sess.ID(), "opencode", id)
	select {
	case <-ts.outcome.Done():
		err := ts.outcome.Err()
		s.a.log.Debug("opencode turn ended", "session", s.sess.ID(), "err", err)
		if err == nil {
			ts.showPatches(srv, id, dir)
		}
		return err
	case <-ctx.Done():
	}
	ictx, icancel := context.WithTimeout(srv.ctx, s.a.opts.InterruptGrace)
	defer icancel()
	if err := srv.c.do(ictx, "POST", "/session/"+id+"/abort", dir, nil, nil); err != nil {
		s.a.log.Warn("opencode abort failed", "session", s.sess.ID(), "err", err)
	}
	if !ts.outcome.EndsBefore(ictx) {
		s.a.log.Warn("opencode did not end an aborted turn in time", "session", s.sess.ID())
	}
	return ctx.Err()
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
