package codex_test

import (
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/host/hosttest"
)

// Deleting a session whose Codex turn is streaming stops the turn and the
// session's app-server: no process is left behind for a session that is
// gone.
func TestDeletingASessionLeavesNoCodexProcess(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.Submit("slow answer please")
	r.Until("the answer streaming", agenttest.IsTextDelta)
	pid := r.agent.ProcessID(r.SessionID)
	if pid == 0 {
		t.Fatal("no app-server runs")
	}
	c := hosttest.Dial(t, r.Host)
	c.MustCall(t, "session/delete", map[string]any{"sessionId": r.SessionID}, nil)
	if !agenttest.Gone(pid, 5*time.Second) {
		t.Fatalf("app-server %d still runs after its session was deleted", pid)
	}
	if r.agent.ProcessID(r.SessionID) != 0 {
		t.Fatal("the bridge still holds the deleted session's thread")
	}
}
