package opencode_test

import (
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/opencode/opencodetest"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

func TestOpenCodeKilledMidTurnThenNextTurnKeepsContext(t *testing.T) {
	t.Parallel() // each starts servers of its own
	r := newRig(t, rigOptions{}).start()
	first, _ := r.turn("say: the secret word is pumpkin")
	wantCompleted(t, first)
	oc := r.stateString("agentSessionId")
	turn := r.submit("slow answer please")
	r.until("the answer streaming", isTextDelta)
	pid := r.agent.ProcessID()
	if pid == 0 {
		t.Fatal("no opencode server runs")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	done, _ := r.until("the turn's end", hosttest.TurnCompleted(turn))
	if done.Status != model.StatusFailed || done.TurnError == nil || done.TurnError.Code != "agentExited" || !strings.Contains(done.TurnError.Message, "killed") {
		t.Fatalf("turn of a killed OpenCode ended %s %+v, want failed agentExited", done.Status, done.TurnError)
	}
	r.noneOpen()
	next, _ := r.turn("say: what was the word")
	wantCompleted(t, next)
	containsAll(t, "the next turn's request", r.lastTurnPrompts(), "the secret word is pumpkin", "what was the word")
	if got := r.stateString("agentSessionId"); got != oc {
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
	r := newRig(t, rigOptions{}).start()
	first, _ := r.turn("say: remember the colour teal")
	wantCompleted(t, first)
	lap("first")
	oc := r.stateString("agentSessionId")
	turn := r.submit("slow answer please")
	r.until("the answer streaming", isTextDelta)
	lap("streaming")
	pid := r.agent.ProcessID()
	if pid == 0 {
		t.Fatal("no opencode server runs")
	}
	closed := make(chan error, 1)
	go func() { closed <- r.h.Close() }()
	if _, _, err := r.c.WaitEvent(r.st, hosttest.TurnCompleted(turn)); err != nil {
		t.Fatal(err)
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("opencode server %d still runs after the host closed", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}

	lap("closed")
	r.startHost()
	r.subscribe()
	next, _ := r.turn("say: which colour")
	wantCompleted(t, next)
	lap("next")
	if got := r.stateString("agentSessionId"); got != oc {
		t.Errorf("OpenCode session after the restart %q, want %q", got, oc)
	}
	containsAll(t, "the request after a restart", r.lastTurnPrompts(), "remember the colour teal", "which colour")
}

// TestAttachedServerRestarted attaches the bridge to a server it did not
// start (--opencode-url): the server dies mid-turn, is started again on
// the same port, and the next turn continues the same OpenCode session.
func TestAttachedServerRestarted(t *testing.T) {
	t.Parallel() // each starts servers of its own
	r := newRig(t, rigOptions{})
	srv := opencodetest.Serve(t, r.bin, r.env, r.work, "0")
	r.url = srv.URL
	r.start()
	first, _ := r.turn("say: the code word is lantern")
	wantCompleted(t, first)
	oc := r.stateString("agentSessionId")
	if r.agent.ProcessID() != 0 {
		t.Error("the attached bridge started a server of its own")
	}
	turn := r.submit("slow answer please")
	r.until("the answer streaming", isTextDelta)
	srv.Kill()
	done, _ := r.until("the turn's end", hosttest.TurnCompleted(turn))
	if done.Status != model.StatusFailed || done.TurnError == nil || done.TurnError.Code != "agentExited" {
		t.Fatalf("turn of a dead server ended %s %+v, want failed agentExited", done.Status, done.TurnError)
	}
	r.noneOpen()
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	opencodetest.Serve(t, r.bin, r.env, r.work, u.Port())
	next, _ := r.turn("say: which code word")
	wantCompleted(t, next)
	if got := r.stateString("agentSessionId"); got != oc {
		t.Errorf("OpenCode session after the server restart %q, want %q", got, oc)
	}
	containsAll(t, "the request after the server restart", r.lastTurnPrompts(), "the code word is lantern", "which code word")
}
