package sync

import (
	"context"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// steeredText is the text of the view's completed steered userMessages.
func steeredText(v *model.View) []string {
	var out []string
	if v == nil {
		return nil
	}
	for _, it := range v.Items {
		if it.Kind == model.KindUserMessage && it.Steered() && it.Status == model.StatusCompleted {
			out = append(out, it.Text())
		}
	}
	return out
}

// TestSteerLandsInTheRunningTurnOrBecomesAPrompt: Steer sends text into
// the demo's running slow turn, where the view shows it; with no turn
// running, the same call becomes an ordinary prompt.
func TestSteerLandsInTheRunningTurnOrBecomesAPrompt(t *testing.T) {
	h := startHost(t, host.Options{})
	sid := createSession(t, h.URL(), h.Token(), "steer")
	c := fastClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid})
	waitFor(t, c.Client, "the host's features", func(s Picture) bool { return s.Steer })

	c.Submit("slow please")
	waitFor(t, c.Client, "the slow turn answering", func(s Picture) bool {
		return s.View != nil && s.View.ActiveTurn != nil && len(s.View.Items) > 1
	})
	c.Steer("the blue one")
	s := waitFor(t, c.Client, "the steer in the turn", func(s Picture) bool {
		return strings.Join(steeredText(s.View), "|") == "the blue one"
	})
	if len(s.View.Pending) != 0 {
		t.Fatalf("a landed steer left a pending prompt: %+v", s.View.Pending)
	}
	c.Interrupt()
	waitFor(t, c.Client, "the turn over", func(s Picture) bool { return s.View.ActiveTurn == nil })

	c.Steer("say hello")
	waitFor(t, c.Client, "the steer run as the next prompt", func(s Picture) bool {
		for _, it := range s.View.Items {
			if it.Kind == model.KindUserMessage && !it.Steered() && it.Text() == "say hello" {
				return true
			}
		}
		return false
	})
}

// TestSteerIntoAnAgentThatCannotIsQueued: with a host whose agent takes no
// input mid-turn (features.steer false), Steer says so and queues the text
// as the next prompt.
func TestSteerIntoAnAgentThatCannotIsQueued(t *testing.T) {
	h := startHost(t, host.Options{AgentImpl: blockingAgent{}, Agent: "fake"})
	sid := createSession(t, h.URL(), h.Token(), "no steer")
	c := fastClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid})
	waitFor(t, c.Client, "connected", func(s Picture) bool { return s.Durability != "" })
	if c.Current().Steer {
		t.Fatal("features.steer is true for an agent without Steer")
	}
	c.Submit("first")
	waitFor(t, c.Client, "the turn running", func(s Picture) bool { return s.View != nil && s.View.ActiveTurn != nil })
	c.Steer("mid-turn words")
	waitFor(t, c.Client, "the text queued, and why", func(s Picture) bool {
		said := false
		for _, e := range s.Errors {
			said = said || strings.Contains(e, "not steered: this agent takes no input")
		}
		return said && (len(s.View.QueuedTurns) == 1 || len(s.View.Pending) == 1)
	})
}

// blockingAgent runs each turn until it is interrupted, and takes no input
// into it.
type blockingAgent struct{}

func (blockingAgent) Launch(string) error { return nil }

func (blockingAgent) Run(ctx context.Context, _ *host.Turn) error {
	<-ctx.Done()
	return ctx.Err()
}
