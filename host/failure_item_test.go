package host_test

import (
	"context"
	"errors"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// failingAgent fails every turn the way its prompt names.
type failingAgent struct{ host.DemoAgent }

func (failingAgent) Run(ctx context.Context, t *host.Turn) error {
	switch t.Prompt() {
	case "typed":
		return &host.TurnFailure{Code: "agentStartFailed", Message: "Error: CODEX_HOME points to nowhere"}
	case "plain":
		return errors.New("the pipe broke")
	case "said":
		if _, err := t.RecordItem(model.KindError, model.StatusFailed, map[string]any{"message": "the model said no"}); err != nil {
			return err
		}
		return &host.TurnFailure{Code: "modelError", Message: "the model said no"}
	}
	return nil
}

func TestAFailedTurnSaysWhyInItsTranscript(t *testing.T) {
	h := hosttest.Start(t, host.Options{AgentImpl: failingAgent{}})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	for _, c2 := range []struct{ prompt, code, message string }{
		{"typed", "agentStartFailed", "Error: CODEX_HOME points to nowhere"},
		{"plain", "agentError", "the pipe broke"},
		{"said", "", "the model said no"},
	} {
		ev, _ := runTurn(t, c, sid, st, "c-"+c2.prompt, c2.prompt)
		if ev.Status != model.StatusFailed {
			t.Fatalf("%s: turn ended %s", c2.prompt, ev.Status)
		}
		var errs []*model.Item
		for _, it := range itemsOfKind(st, model.KindError) {
			if it.TurnID == ev.TurnID {
				errs = append(errs, it)
			}
		}
		if len(errs) != 1 {
			t.Fatalf("%s: %d error items, want one", c2.prompt, len(errs))
		}
		if e := errs[0]; e.ErrorMessage() != c2.message || e.String("code") != c2.code || e.Status != model.StatusFailed {
			t.Errorf("%s: error item %q code %q status %s", c2.prompt, e.ErrorMessage(), e.String("code"), e.Status)
		}
	}
	// The item is history: a fresh subscriber's snapshot holds it too.
	fresh, _ := snapshotState(t, hosttest.Dial(t, h), sid)
	if n := len(itemsOfKind(fresh, model.KindError)); n != 3 {
		t.Errorf("a snapshot holds %d error items, want 3", n)
	}
}
