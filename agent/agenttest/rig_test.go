package agenttest

import (
	"os"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// The rig's own tests run the host's demo agent.

func newDemoRig(t *testing.T) *Rig {
	return NewRig(t, "demo", func() host.Agent { return &host.DemoAgent{} })
}

func TestRigRunsTurnsAndAnswersApprovals(t *testing.T) {
	r := newDemoRig(t)
	done, seen := r.Turn("hello")
	WantCompleted(t, done)
	if msg := r.One(model.KindAgentMessage, done.TurnID); msg.Text() == "" || r.Last(model.KindAgentMessage, "") != msg {
		t.Errorf("answer %q", msg.Text())
	}
	deltas := 0
	for _, ev := range seen {
		if IsTextDelta(ev) {
			deltas++
		}
	}
	if deltas == 0 || r.StateString("title") != "hello" {
		t.Errorf("%d text deltas, title %q", deltas, r.StateString("title"))
	}
	turn := r.Submit("tool please")
	ask, _ := r.Until("the approval", IsApproval)
	r.Respond(ask.ApprovalID, "approve")
	done, _ = r.Until("the turn's end", hosttest.TurnCompleted(turn))
	WantCompleted(t, done)
	if tool := r.One(model.KindToolCall, turn); tool.Status != model.StatusCompleted {
		t.Errorf("approved tool ended %s", tool.Status)
	}
	if n := len(r.Items(model.KindAgentMessage, "")); n != 2 {
		t.Errorf("%d answers in the session", n)
	}
}

func TestRigInterruptsRestartsAndWatches(t *testing.T) {
	r := newDemoRig(t)
	turn := r.Submit("slow")
	r.Until("the answer streaming", IsTextDelta)
	r.Interrupt(turn)
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	if done.Status != model.StatusStopped {
		t.Errorf("interrupted turn ended %s", done.Status)
	}
	if err := r.Host.Close(); err != nil {
		t.Fatal(err)
	}
	r.StartHost()
	r.Subscribe()
	_, st := r.AnotherClient()
	if a, b := string(st.Encode()), string(r.State.Encode()); a != b || r.State.Len() == 0 {
		t.Errorf("after a restart the clients' folds differ or are empty:\n%s\n%s", a, b)
	}
}

func TestGone(t *testing.T) {
	if !Gone(1<<22+12345, 0) {
		t.Error("a pid that does not exist is not gone")
	}
	if Gone(os.Getpid(), 50e6) {
		t.Error("this process is gone")
	}
}

func TestRigForkSharesTheHost(t *testing.T) {
	r := newDemoRig(t)
	t.Run("fork", func(t *testing.T) {
		f := r.Fork(t)
		if f.Host != r.Host || f.SessionID == r.SessionID || f.Client == r.Client {
			t.Fatal("a fork is not a new session on the same host")
		}
		done, _ := f.Turn("hello")
		WantCompleted(t, done)
		f.NoneOpen()
	})
	if n := len(r.Items(model.KindAgentMessage, "")); n != 0 {
		t.Errorf("the fork's turn reached the first session: %d answers", n)
	}
}
