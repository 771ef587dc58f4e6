package host_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// newSession creates a session on c and subscribes to it from the start.
func newSession(t *testing.T, c *hosttest.Client) (sid, epoch string, st *model.State) {
	t.Helper()
	var cr struct {
		SessionID string `json:"sessionId"`
	}
	c.MustCall(t, "session/create", map[string]any{"title": "test"}, &cr)
	sub, err := c.Subscribe(cr.SessionID, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	st = model.NewState(cr.SessionID)
	if _, err := st.LoadSnapshot(cr.SessionID, sub.Epoch, *sub.Snapshot); err != nil {
		t.Fatal(err)
	}
	return cr.SessionID, sub.Epoch, st
}

func TestSubmitStreamsAFullTurn(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	c := hosttest.Dial(t, h)
	var init struct {
		ServerInfo      struct{ Name string }
		ProtocolVersion int
		Durability      string
	}
	c.MustCall(t, "initialize", map[string]any{"clientInfo": map[string]any{"name": "t", "version": "1"}}, &init)
	if init.ServerInfo.Name != "lookout-host" || init.ProtocolVersion != 1 || init.Durability != "durable" {
		t.Fatalf("initialize = %+v", init)
	}
	sid, _, st := newSession(t, c)
	status, turnID, err := c.Submit(sid, "cmd-1", "hello there")
	if err != nil || status != "started" || turnID == "" {
		t.Fatalf("submit = %q %q %v", status, turnID, err)
	}
	_, seen, err := c.WaitEvent(st, hosttest.TurnCompleted(turnID))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	deltas := 0
	for _, ev := range seen {
		if ev.Item != nil {
			kinds[ev.Item.Kind] = true
		}
		if ev.Method == model.MethodItemDelta {
			deltas++
		}
	}
	if !kinds["userMessage"] || !kinds["reasoning"] || !kinds["agentMessage"] || deltas < 10 {
		t.Fatalf("kinds %v, %d deltas", kinds, deltas)
	}
	var msg *model.Item
	for _, it := range st.Items() {
		if it.Kind == "agentMessage" {
			msg = it
		}
	}
	if msg == nil || !strings.Contains(msg.Text(), "```go") || msg.Status != "completed" {
		t.Fatalf("agent message = %+v", msg)
	}
	// The fold of the live stream equals a fresh snapshot.
	sub, err := hosttest.Dial(t, h).Subscribe(sid, "", "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	snapState := model.NewState(sid)
	if _, err := snapState.LoadSnapshot(sid, sub.Epoch, *sub.Snapshot); err != nil {
		t.Fatal(err)
	}
	if a, b := st.Encode(), snapState.Encode(); string(a) != string(b) {
		t.Fatalf("live fold != snapshot\nlive: %s\nsnap: %s", a, b)
	}
	_ = json.RawMessage{}
}
