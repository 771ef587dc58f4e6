package opencode_test

import (
	"net/url"
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/opencode/opencodetest"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// testAttachedServerRestarted attaches the bridge to a server it did not
// start (--opencode-url): the server dies mid-turn, is started again on
// the same port, and the next turn continues the same OpenCode session.
// It runs in TestOpenCodeBridge, beside the contract's behaviours that
// start servers of their own, in parallel with them.
func testAttachedServerRestarted(t *testing.T) {
	t.Parallel() // it starts servers of its own
	r := newRig(t, rigOptions{attach: true})
	srv := r.served
	first, _ := r.Turn("say: the code word is lantern")
	agenttest.WantCompleted(t, first)
	oc := r.StateString("agentSessionId")
	if r.agent.ProcessID() != 0 {
		t.Error("the attached bridge started a server of its own")
	}
	turn := r.Submit("slow answer please")
	r.Until("the answer streaming", agenttest.IsTextDelta)
	srv.Kill()
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	if done.Status != model.StatusFailed || done.TurnError == nil || done.TurnError.Code != "agentExited" {
		t.Fatalf("turn of a dead server ended %s %+v, want failed agentExited", done.Status, done.TurnError)
	}
	r.NoneOpen()
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	opencodetest.Serve(t, r.bin, r.env, r.work, u.Port())
	next, _ := r.Turn("say: which code word")
	agenttest.WantCompleted(t, next)
	if got := r.StateString("agentSessionId"); got != oc {
		t.Errorf("OpenCode session after the server restart %q, want %q", got, oc)
	}
	agenttest.ContainsAll(t, "the request after the server restart", r.lastTurnPrompts(), "the code word is lantern", "which code word")
}
