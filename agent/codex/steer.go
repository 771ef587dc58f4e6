package codex

import (
	"context"
	"errors"

	"github.com/lookout-sh/lookout/host"
)

// Steer hands text to the session's running Codex turn as the user's
// input (turn/steer, naming the turn it expects): Codex adds it to the
// turn's next model call. Codex shows it as a userMessage item, which the
// bridge does not repeat: the host shows the steer itself.
func (a *Agent) Steer(ctx context.Context, t *host.Turn, text string) error {
	th, err := a.threads.Get(t.SessionID())
	if err != nil || th == nil {
		return errors.New("no Codex thread runs this session")
	}
	ts := th.turns.Current()
	if ts == nil || ts.t.ID() != t.ID() {
		return host.ErrTurnOver
	}
	turnID := ts.codexTurn()
	if turnID == "" {
		return errors.New("the turn has not started at Codex yet")
	}
	return th.steer(ctx, turnID, text)
}

// steer sends text into the thread's running Codex turn turnID.
func (th *thread) steer(ctx context.Context, turnID, text string) error {
	_, err := th.p.conn.call(ctx, "turn/steer", map[string]any{
		"threadId": th.id, "expectedTurnId": turnID,
		"input": []any{map[string]any{"type": "text", "text": text, "text_elements": []any{}}},
	})
	return err
}
