package sync

import (
	"context"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// compactingAgent offers /compact and records the command of each turn.
type compactingAgent struct {
	host.DemoAgent
	ran chan string
}

func (a compactingAgent) Commands() []host.AgentCommand {
	return []host.AgentCommand{{Name: "compact"}}
}

func (a compactingAgent) Run(_ context.Context, t *host.Turn) error {
	a.ran <- t.AgentCommand()
	return nil
}

// TestSubmitCommandNamesTheAgentCommand: SubmitCommand's turn runs the
// agent command (the host hands the agent its name); a name the agent does
// not offer is rejected and its text given back; the Picture says the
// host runs agent commands.
func TestSubmitCommandNamesTheAgentCommand(t *testing.T) {
	a := compactingAgent{ran: make(chan string, 4)}
	h := startHost(t, host.Options{AgentImpl: a, Agent: "fake"})
	sid := createSession(t, h.URL(), h.Token(), "commands")
	c := fastClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid})
	waitFor(t, c.Client, "the host's features", func(s Picture) bool { return s.AgentCommands })

	c.SubmitCommand("/compact", "compact")
	if got := <-a.ran; got != "compact" {
		t.Fatalf("the agent ran %q, want compact", got)
	}
	lost := c.SubmitCommand("/nosuch", "nosuch")
	s := waitFor(t, c.Client, "the refused command given back", func(s Picture) bool { return len(s.Returned) == 1 })
	if r := s.Returned[0]; r.CommandID != lost || r.Reason != model.RetiredRejected || r.Text != "/nosuch" {
		t.Fatalf("returned %+v, want the /nosuch line rejected", r)
	}
	c.Submit("plain words")
	if got := <-a.ran; got != "" {
		t.Fatalf("a prompt ran as agent command %q", got)
	}
}
