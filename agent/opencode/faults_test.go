package opencode_test

import (
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/opencode/opencodetest"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

func TestOpenCodeKilledMidTurnThenNextTurnKeepsContext(t *testing.T) {
	t.Parallel() // each starts servers of its own
	r := newRig(t, rigOptions{})
	first, _ := r.Turn("say: the secret word is pumpkin")
	agenttest.WantCompleted(t, first)
	oc := r.StateString("agentSessionId")
	turn := r.Submit("slow answer please")
	r.Until("the answer streaming", agenttest.IsTextDelta)
	pid := r.agent.ProcessID()
	if pid == 0 {
		t.Fatal("no opencode server runs")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	if done.Status != model.StatusFailed || done.TurnError == nil || done.TurnError.Code != "agentExited" || !strings.Contains(done.TurnError.Message, "killed") {
		t.Fatalf("turn of a killed OpenCode ended %s %+v, want failed agentExited", done.Status, done.TurnError)
	}
	r.NoneOpen()
	next, _ := r.Turn("say: what was the word")
	agenttest.WantCompleted(t, next)
	agenttest.ContainsAll(t, "the next turn's request", r.lastTurnPrompts(), "the secret word is pumpkin", "what was the word")
	if got := r.StateString("agentSessionId"); got != oc {
		t.Errorf("OpenCode session after the kill %q, want %q", got, oc)
	}
	if p := r.agent.ProcessID(); p == pid || p == 0 {
		t.Errorf("server pid %d after the kill (was %d), want a new one", p, pid)
	}
}

// TestHostCloseMidTurnThenRestart closes the host while OpenCode streams:
// the turn ends, no OpenCode process is left, and a new host continues the
// same OpenCode session with its context.
func TestHostCloseMidTurnThenRestart(t *testing.T) {
	t.Parallel() // each starts servers of its own
	t0 := time.Now()
	lap := func(w string) { t.Logf("%6.2fs %s", time.Since(t0).Seconds(), w) }
	r := newRig(t, rigOptions{})
	first, _ := r.Turn("say: remember the colour teal")
	agenttest.WantCompleted(t, first)
	lap("first")
	oc := r.StateString("agentSessionId")
	turn := r.Submit("slow answer please")
	r.Until("the answer streaming", agenttest.IsTextDelta)
	lap("streaming")
	pid := r.agent.ProcessID()
	if pid == 0 {
		t.Fatal("no opencode server runs")
	}
	closed := make(chan error, 1)
	go func() { closed <- r.Host.Close() }()
	if _, _, err := r.Client.WaitEvent(r.State, hosttest.TurnCompleted(turn)); err != nil {
		t.Fatal(err)
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if !agenttest.Gone(pid, 5*time.Second) {
		t.Fatalf("opencode server %d still runs after the host closed", pid)
	}

	lap("closed")
	r.StartHost()
	r.Subscribe()
	next, _ := r.Turn("say: which colour")
	agenttest.WantCompleted(t, next)
	lap("next")
	if got := r.StateString("agentSessionId"); got != oc {
		t.Errorf("OpenCode session after the restart %q, want %q", got, oc)
	}
	agenttest.ContainsAll(t, "the request after a restart", r.lastTurnPrompts(), "remember the colour teal", "which colour")
}

// TestAttachedServerRestarted attaches the bridge to a server it did not
// start (--opencode-url): the server dies mid-turn, is started again on
// the same port, and the next turn continues the same OpenCode session.
func TestAttachedServerRestarted(t *testing.T) {
	t.Parallel() // each starts servers of its own
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
