package host_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// misbehavingAgent breaks the rules in the ways an Agent could, and
// records what the Turn API answered.
type misbehavingAgent struct {
	host.DemoAgent
	errs chan error
}

func (a misbehavingAgent) Run(ctx context.Context, t *host.Turn) error {
	switch t.Prompt() {
	case "panic":
		panic("agent bug")
	case "bad utf8":
		id, err := t.StartItem(model.KindAgentMessage, model.StatusInProgress, map[string]any{"text": ""})
		if err != nil {
			return err
		}
		// 300,000 invalid bytes become U+FFFD: 1,200,000 bytes on the
		// wire, past the text bound.
		if err := t.Delta(id, "text", strings.Repeat("a\xff", 300_000)); err != nil {
			return err
		}
		return t.CompleteItem(id, model.StatusCompleted, nil)
	case "leave open":
		id, err := t.StartItem(model.KindReasoning, model.StatusInProgress, map[string]any{"summary": []string{}})
		if err != nil {
			return err
		}
		a.errs <- t.Delta(id, "summary.3", "out of range") // refused: the fold cannot append there
		a.errs <- t.Delta("no-such-item", "text", "x")
		a.errs <- t.UpdateItem(id, model.StatusCompleted, nil) // terminal status on item/updated
		a.errs <- t.Delta(id, "summary.0", "fine")
		close(a.errs)
		return nil // leaves the reasoning open
	}
	return a.DemoAgent.Run(ctx, t)
}

func TestAgentMistakesAreRefusedAndTurnsStillEnd(t *testing.T) {
	errs := make(chan error, 8)
	h := hosttest.Start(t, host.Options{AgentImpl: misbehavingAgent{errs: errs}})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)

	runTurn(t, c, sid, st, "u", "bad utf8")
	msgs := itemsOfKind(st, model.KindAgentMessage)
	if txt := msgs[0].Text(); len(txt) > host.TextBound || !utf8.ValidString(txt) || !msgs[0].Truncated("text") {
		t.Fatalf("invalid UTF-8 delta: %d bytes, valid %v, truncated %v", len(txt), utf8.ValidString(txt), msgs[0].TruncatedFields())
	}

	ev, _ := runTurn(t, c, sid, st, "p", "panic")
	if ev.Status != model.StatusFailed || ev.TurnError == nil || ev.TurnError.Code != "agentPanic" {
		t.Fatalf("panicking agent's turn: %+v", ev)
	}
	ev, seen := runTurn(t, c, sid, st, "o", "leave open")
	var got []error
	for e := range errs {
		got = append(got, e)
	}
	if len(got) != 4 || got[0] == nil || !errors.Is(got[1], host.ErrUnknownItem) || got[2] == nil || got[3] != nil {
		t.Fatalf("Turn API answers: %v", got)
	}
	for _, e := range seen {
		if e.Method == model.MethodItemDelta && e.Field != "summary.0" {
			t.Fatalf("a refused delta was emitted: %s", e.Params)
		}
	}
	if ev.Status != model.StatusCompleted {
		t.Fatalf("turn status %s", ev.Status)
	}
	for _, it := range st.Items() {
		if it.IsOpen() {
			t.Fatalf("the host left %s open", it.ID)
		}
		if it.Kind == model.KindReasoning && it.Summary()[0] != "fine" {
			t.Fatalf("reasoning summary %v", it.Summary())
		}
	}
}
