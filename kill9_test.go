package main

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// kill9Case is a real agent whose `lookout serve` testHostKill9MidTurn
// kills.
type kill9Case struct {
	agent   string   // --agent
	binFlag string   // the flag naming its binary (--codex-bin)
	bin     string   // its binary
	env     []string // its environment, pointed at a fake model
	child   string   // its command name in /proc, as a child of the host
	// conversation is what the agent calls the conversation a session
	// resumes ("thread"), for messages.
	conversation string
	// lastPrompts lists the prompts of the fake model's last request.
	lastPrompts func() []string
}

// testHostKill9MidTurn builds lookout, serves the agent, and kills the
// host with SIGKILL while the agent streams an answer: the agent dies
// with it, the restarted host ends the turn hostDeath keeping the
// streamed text, and the next turn resumes the agent's conversation with
// its earlier messages.
func testHostKill9MidTurn(t *testing.T, c kill9Case) {
	work := agenttest.Workdir(t)
	bin := buildLookout(t)
	data := t.TempDir()
	serve := func(addr string) (*exec.Cmd, string) {
		return startServe(t, bin, c.env, "--agent", c.agent, c.binFlag, c.bin, "--cwd", work, "--addr", addr, "--data", data)
	}
	dial := func(url string) *hosttest.Client {
		tok, err := os.ReadFile(host.TokenPath(data))
		if err != nil {
			t.Fatal(err)
		}
		c, _, err := hosttest.DialURL(url, http.Header{"Authorization": {"Bearer " + string(tok)}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	proc, url := serve("127.0.0.1:0")
	cl := dial(url)
	var created struct {
		SessionID string `json:"sessionId"`
	}
	cl.MustCall(t, "session/create", map[string]any{}, &created)
	sid := created.SessionID
	if _, err := cl.Subscribe(sid, "", "", 0); err != nil {
		t.Fatal(err)
	}
	_, first, err := cl.Submit(sid, uuid.NewString(), "say: the password is marigold")
	if err != nil {
		t.Fatal(err)
	}
	if ev, _, err := cl.WaitEvent(nil, hosttest.TurnCompleted(first)); err != nil || ev.Status != model.StatusCompleted {
		t.Fatalf("first turn: %v %+v", err, ev)
	}
	_, turn, err := cl.Submit(sid, uuid.NewString(), "slow answer please")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := cl.WaitEvent(nil, agenttest.IsTextDelta); err != nil {
		t.Fatal(err)
	}
	// The host records streamed text at most this much behind what its
	// clients saw (docs/host.md): what is older survives the kill.
	time.Sleep(host.StreamRecordInterval + time.Second)
	kids := childrenNamed(proc.Process.Pid, c.child)
	if len(kids) == 0 {
		t.Fatalf("no %s child of the host", c.agent)
	}
	if err := proc.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = proc.Wait() // "signal: killed", as asked
	for _, pid := range kids {
		if !agenttest.Gone(pid, 5*time.Second) {
			t.Fatalf("%s %d outlived its host", c.agent, pid)
		}
	}

	_, url = serve(strings.TrimPrefix(strings.TrimSuffix(url, host.WSPath), "ws://"))
	cl = dial(url)
	sub, err := cl.Subscribe(sid, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	st := model.NewState(sid)
	if _, err := st.LoadSnapshot(sid, sub.Epoch, *sub.Snapshot); err != nil {
		t.Fatal(err)
	}
	var answer *model.Item
	for _, it := range st.Items() {
		if it.TurnID == turn && it.Kind == model.KindAgentMessage {
			answer = it
		}
	}
	if answer == nil || answer.Status != model.StatusFailed || answer.EndedBy() != "hostDeath" || !strings.HasPrefix(answer.Text(), "slow0") {
		t.Errorf("the answer the crash cut off reads %+v, want failed by hostDeath with its streamed text", answer)
	}
	if st.ActiveTurn() != nil {
		t.Errorf("turn %s still active after recovery", st.ActiveTurn().TurnID)
	}
	for _, it := range st.Items() {
		if it.IsOpen() {
			t.Errorf("item %s (%s) still open after recovery", it.ID, it.Kind)
		}
	}
	_, next, err := cl.Submit(sid, uuid.NewString(), "say: what was the password")
	if err != nil {
		t.Fatal(err)
	}
	if ev, _, err := cl.WaitEvent(st, hosttest.TurnCompleted(next)); err != nil || ev.Status != model.StatusCompleted {
		t.Fatalf("the turn after the crash: %v %+v", err, ev)
	}
	if prompts := strings.Join(c.lastPrompts(), "\n"); !strings.Contains(prompts, "the password is marigold") {
		t.Errorf("the resumed %s's request lacks the earlier prompt: %q", c.conversation, prompts)
	}
}

// childrenNamed lists the pids of parent's children whose command name is
// name (from /proc).
func childrenNamed(parent int, name string) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(b)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open {
			continue
		}
		fields := strings.Fields(s[close+1:])
		if len(fields) < 2 || s[open+1:close] != name {
			continue
		}
		if ppid, _ := strconv.Atoi(fields[1]); ppid == parent {
			out = append(out, pid)
		}
	}
	return out
}
