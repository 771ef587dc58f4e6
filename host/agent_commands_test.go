package host_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// commandAgent offers /compact and tells what each turn asked it to run.
type commandAgent struct {
	host.DemoAgent
	ran chan [2]string // {AgentCommand, Prompt} of every turn
}

func (a commandAgent) Commands() []host.AgentCommand {
	return []host.AgentCommand{{Name: "compact", Description: "Summarise the conversation"}}
}

func (a commandAgent) Run(ctx context.Context, t *host.Turn) error {
	a.ran <- [2]string{t.AgentCommand(), t.Prompt()}
	if t.Prompt() == "block" {
		<-ctx.Done()
		return ctx.Err()
	}
	return nil
}

func submitCommand(c *hosttest.Client, sid, cid, text, name string) (json.RawMessage, *model.RPCError, error) {
	return c.Call("turn/submit", map[string]any{"sessionId": sid, "commandId": cid, "text": text, "agentCommand": name})
}

func TestAgentCommandRunsAsATurnOfItsOwn(t *testing.T) {
	a := commandAgent{ran: make(chan [2]string, 4)}
	h := hosttest.Start(t, host.Options{AgentImpl: a, Agent: "fake"})
	c := hosttest.Dial(t, h)
	var init struct {
		Features map[string]any `json:"features"`
	}
	c.MustCall(t, "initialize", map[string]any{"clientInfo": map[string]any{"name": "t", "version": "1"}}, &init)
	if init.Features["agentCommands"] != true {
		t.Fatalf("features %v lack agentCommands", init.Features)
	}
	sid, _, st := newSession(t, c)
	var offered []host.AgentCommand
	if err := json.Unmarshal(st.Value(host.StateCommands), &offered); err != nil || len(offered) != 1 || offered[0].Name != "compact" {
		t.Fatalf("a new session's commands: %s (%v)", st.Value(host.StateCommands), err)
	}

	res, rerr, err := submitCommand(c, sid, "c1", "/compact keep the tests", "compact")
	if err != nil || rerr != nil {
		t.Fatalf("turn/submit with agentCommand: %v %v", err, rerr)
	}
	var r struct{ TurnID string }
	_ = json.Unmarshal(res, &r)
	if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(r.TurnID)); err != nil {
		t.Fatal(err)
	}
	if got := <-a.ran; got != [2]string{"compact", "/compact keep the tests"} {
		t.Fatalf("the agent was asked %q, want compact with the typed line", got)
	}
	users := itemsOfKind(st, model.KindUserMessage)
	if len(users) != 1 || users[0].String("agentCommand") != "compact" {
		t.Fatalf("the command's userMessage does not name it: %+v", users)
	}

	_, rerr, _ = submitCommand(c, sid, "c2", "/nosuch", "nosuch")
	if rerr == nil || rerr.Code != model.CodeRejected || !jsonHas(rerr.Data, "commandNotOffered") {
		t.Fatalf("a command the agent does not offer: %+v, want -32010 commandNotOffered", rerr)
	}
	_, rerr, _ = submitCommand(c, sid, "c3", "/x", "bad name\x1b")
	if rerr == nil || rerr.Code != model.CodeInvalidParams {
		t.Fatalf("a malformed command name: %+v, want -32602", rerr)
	}
	select {
	case got := <-a.ran:
		t.Fatalf("a refused command reached the agent: %q", got)
	default:
	}
}

func TestQueuedAgentCommandSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	a := commandAgent{ran: make(chan [2]string, 8)}
	h := hosttest.Start(t, host.Options{AgentImpl: a, Agent: "fake", DataDir: dir})
	c := hosttest.Dial(t, h)
	sid, _, _ := newSession(t, c)
	if _, _, err := c.Submit(sid, "b1", "block"); err != nil {
		t.Fatal(err)
	}
	<-a.ran
	res, rerr, err := submitCommand(c, sid, "c1", "/compact", "compact")
	if err != nil || rerr != nil || !jsonHas(res, "queued") {
		t.Fatalf("queueing a command: %s %v %v", res, rerr, err)
	}
	h.Close()

	h2 := hosttest.Start(t, host.Options{AgentImpl: a, Agent: "fake", DataDir: dir})
	defer h2.Close()
	select {
	case got := <-a.ran:
		if got != [2]string{"compact", "/compact"} {
			t.Fatalf("after a restart the queued command ran as %q", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the queued command did not run after a restart")
	}
}

func jsonHas(raw json.RawMessage, s string) bool {
	return json.Valid(raw) && strings.Contains(string(raw), s)
}
