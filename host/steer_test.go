package host_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

func steerParams(sid, cid, text string) map[string]any {
	return map[string]any{"sessionId": sid, "commandId": cid, "text": text}
}

// Text steered into the demo's running slow turn shows there as a
// steered userMessage, the demo answers it while the turn goes on, and a
// repeat of the commandId steers nothing more.
func TestSteerLandsInTheRunningTurnOnce(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	if e := rpcCode(t, c, "turn/steer", steerParams(sid, "s0", "too early")); e == nil || e.Code != model.CodeRejected || errReason(t, e)["reason"] != "noActiveTurn" {
		t.Fatalf("a steer with no turn running: %+v", e)
	}
	_, turn, err := c.Submit(sid, "c1", "slow please")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.WaitEvent(st, func(ev *model.Event) bool {
		return ev.Method == model.MethodItemStarted && ev.Item.Kind == model.KindAgentMessage && ev.Item.TurnID == turn
	}); err != nil {
		t.Fatal(err)
	}
	var first, again struct{ TurnID, ItemID string }
	c.MustCall(t, "turn/steer", steerParams(sid, "s1", "use the blue one"), &first)
	if first.TurnID != turn || first.ItemID == "" {
		t.Fatalf("steer answered %+v, want turn %s and an item", first, turn)
	}
	if _, _, err := c.WaitEvent(st, func(*model.Event) bool {
		steer := st.Item(first.ItemID)
		for _, m := range itemsOfKind(st, model.KindAgentMessage) {
			if strings.Contains(m.Text(), "use the blue one") && steer != nil && steer.Status == model.StatusCompleted {
				return true
			}
		}
		return false
	}); err != nil {
		t.Fatal(err)
	}
	c.MustCall(t, "turn/steer", steerParams(sid, "s1", "use the blue one"), &again)
	if again != first {
		t.Fatalf("the repeated steer answered %+v, want %+v", again, first)
	}
	var steered []*model.Item
	for _, it := range itemsOfKind(st, model.KindUserMessage) {
		if it.Steered() {
			steered = append(steered, it)
		}
	}
	if len(steered) != 1 || steered[0].ID != first.ItemID || steered[0].Text() != "use the blue one" ||
		steered[0].Status != model.StatusCompleted || steered[0].TurnID != turn {
		t.Fatalf("steered items %v", steered)
	}
	if e := rpcCode(t, c, "turn/steer", steerParams(sid, "s2", "")); e == nil || errReason(t, e)["reason"] != "emptyText" {
		t.Fatalf("an empty steer: %+v", e)
	}
	if e := rpcCode(t, c, "turn/steer", map[string]any{"sessionId": sid, "text": "x"}); e == nil || e.Code != model.CodeInvalidParams {
		t.Fatalf("a steer without commandId: %+v", e)
	}
	c.MustCall(t, "turn/interrupt", map[string]any{"sessionId": sid, "turnId": turn}, nil)
	if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(turn)); err != nil {
		t.Fatal(err)
	}
	c.MustCall(t, "turn/steer", steerParams(sid, "s1", "use the blue one"), &again)
	if again != first {
		t.Fatalf("after the turn, the repeated steer answered %+v, want %+v", again, first)
	}
}

// plainAgent runs turns and takes no input into them.
type plainAgent struct{}

func (plainAgent) Launch(string) error { return nil }
func (plainAgent) Run(ctx context.Context, t *host.Turn) error {
	<-ctx.Done()
	return ctx.Err()
}

// An agent that takes no input mid-turn refuses a steer with
// steerNotSupported and shows nothing; initialize says so.
func TestSteerRefusedByAnAgentThatCannot(t *testing.T) {
	h := hosttest.Start(t, host.Options{AgentImpl: plainAgent{}})
	c := hosttest.Dial(t, h)
	var init struct {
		Features map[string]any `json:"features"`
	}
	c.MustCall(t, "initialize", map[string]any{"clientInfo": map[string]any{"name": "t", "version": "1"}}, &init)
	if init.Features["steer"] != false {
		t.Fatalf("features.steer = %v for an agent that cannot steer", init.Features["steer"])
	}
	sid, _, st := newSession(t, c)
	_, turn, err := c.Submit(sid, "c1", "anything")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.WaitEvent(st, func(ev *model.Event) bool { return ev.Method == model.MethodTurnStarted }); err != nil {
		t.Fatal(err)
	}
	e := rpcCode(t, c, "turn/steer", steerParams(sid, "s1", "mid-turn"))
	if e == nil || e.Code != model.CodeRejected || errReason(t, e)["reason"] != "steerNotSupported" {
		t.Fatalf("steer into an agent that cannot: %+v", e)
	}
	for _, it := range itemsOfKind(st, model.KindUserMessage) {
		if it.Steered() {
			t.Fatalf("a refused steer left an item: %s", it.AppendJSON(nil))
		}
	}
	c.MustCall(t, "turn/interrupt", map[string]any{"sessionId": sid, "turnId": turn}, nil)
}
