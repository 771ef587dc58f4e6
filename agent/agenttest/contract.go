package agenttest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// Subject is a bridge as the contract suite (RunContract) sees it: how to
// stage it against its real program and fake model, and what that fake
// answers. A bridge's contract_test.go fills one in.
type Subject struct {
	// Agent is the host's name of the bridge ("codex"): the session's
	// "agent" value.
	Agent string
	// NewRig stages the bridge for t: a host of its own running the bridge
	// against the agent's real program and a fake model of its own, with
	// the rig's Work, PID and LastPrompts set.
	NewRig func(t *testing.T) *Rig
	// Shared, when set, is the rig the behaviours that stop nothing
	// share, each in a session of its own (Fork): a bridge whose own tests
	// share one agent with the suite. Else RunContract stages one.
	Shared *Rig
	// OneProcess says one agent process serves every session (OpenCode's
	// server): the agent killed mid-turn is then staged on a rig of its
	// own, since killing it touches every session.
	OneProcess bool
	// Parallel runs the behaviours staged on rigs of their own in
	// parallel (t.Parallel): each starts the agent anew, which takes
	// seconds.
	Parallel bool

	// PlainAnswer is the fake's answer to "hello there", and
	// PlainReasoning the one reasoning summary before it.
	PlainAnswer, PlainReasoning string
	// Titles are the session titles a first turn may leave besides its
	// prompt (the agent's own, once it named the session).
	Titles []string
	// Shell is the tool name of the commands "run: CMD" prompts run
	// ("shell", "Bash"), and CommandSummary what their approval's summary
	// says before the command ("Run: "; "" anything).
	Shell, CommandSummary string
	// Denied is what the error of a command the user denied says
	// ("declined").
	Denied string
	// ForSession is how the agent approves for the session; nil when its
	// approvals never offer approveForSession.
	ForSession *ForSession

	// Checks are the bridge's own assertions, run after the suite's in
	// the behaviour of the same name (see Behaviours).
	Checks map[string]Check
}

// ForSession is how a subject shows approveForSession.
type ForSession struct {
	// NewRig, when set, stages the rig the behaviour runs on (an agent
	// whose configuration offers it); else it shares the suite's.
	NewRig func(t *testing.T) *Rig
	// Prompt makes the agent ask an approval that offers
	// approveForSession, about an item of kind Kind ("toolCall",
	// "fileChange"); its summary contains Summary.
	Prompt, Kind, Summary string
	// Again, when set, is a prompt the approval covers: in the same
	// session it runs without asking, and in another session it asks.
	Again string
}

// Check is a bridge's own assertion in a behaviour of the suite: r is the
// rig the behaviour ran on, done the turn/completed event of the turn
// that shows the behaviour and seen every event folded until then.
type Check func(t *testing.T, r *Rig, done *model.Event, seen []*model.Event)

// The behaviours of the contract suite, by the subtest names RunContract
// gives them and Subject.Checks uses.
const (
	PlainTurn            = "PlainTurn"
	CommandApproved      = "CommandApproved"
	CommandDenied        = "CommandDenied"
	ApprovedForSession   = "ApprovedForSession"
	Interrupt            = "Interrupt"
	InterruptWhileAsking = "InterruptWhileAsking"
	KilledMidTurn        = "KilledMidTurn"
	TwoClients           = "TwoClients"
	NoProcessLeft        = "NoProcessLeft"
	HostRestartResumes   = "HostRestartResumes"
)

// Behaviours lists the suite's behaviours in the order it runs them.
var Behaviours = []string{PlainTurn, CommandApproved, CommandDenied, ApprovedForSession, Interrupt,
	InterruptWhileAsking, KilledMidTurn, TwoClients, NoProcessLeft, HostRestartResumes}

// RunContract runs the behaviours every bridge must show against s, each
// a subtest of t named after it: a plain turn; a command approved, denied
// and approved for the session; an interrupt while the answer streams and
// while an approval waits; the agent killed mid-turn, then a turn that
// keeps the context; two clients seeing one transcript; a host closed
// mid-turn leaving no agent process; and a restarted host resuming the
// agent's conversation. The behaviours that stop nothing share one rig
// (Subject.Shared), each in a session of its own; the others stage their
// own. The fake model must play the scenarios the prompts name
// (docs/agents.md, "The contract suite").
func RunContract(t *testing.T, s Subject) {
	t.Helper()
	shared := s.Shared
	if shared == nil {
		shared = s.NewRig(t)
	}
	c := contract{s: s}
	own := func(t *testing.T, newRig func(*testing.T) *Rig) *Rig {
		if s.Parallel {
			t.Parallel()
		}
		return newRig(t)
	}
	run := func(name string, f func(t *testing.T, r *Rig) (*model.Event, []*model.Event), rig func(t *testing.T) *Rig) {
		t.Run(name, func(t *testing.T) {
			r := rig(t)
			done, seen := f(t, r)
			if check := s.Checks[name]; check != nil && !t.Failed() {
				check(t, r, done, seen)
			}
		})
	}
	fork := func(t *testing.T) *Rig { return shared.Fork(t) }
	run(PlainTurn, c.plainTurn, fork)
	run(CommandApproved, c.commandApproved, fork)
	run(CommandDenied, c.commandDenied, fork)
	if fs := s.ForSession; fs != nil {
		rig := fork
		if fs.NewRig != nil {
			rig = func(t *testing.T) *Rig { return own(t, fs.NewRig) }
		}
		run(ApprovedForSession, c.approvedForSession, rig)
	}
	run(Interrupt, c.interrupt, fork)
	run(InterruptWhileAsking, c.interruptWhileAsking, fork)
	killRig := fork
	if s.OneProcess {
		killRig = func(t *testing.T) *Rig { return own(t, s.NewRig) }
	}
	run(KilledMidTurn, c.killedMidTurn, killRig)
	run(TwoClients, c.twoClients, fork)
	t.Run("HostCloseAndRestart", func(t *testing.T) {
		r := own(t, s.NewRig)
		// The restart continues what the close left: one rig, in order.
		var session string
		steps := Steps(t)
		steps(NoProcessLeft, func(t *testing.T) {
			r.T = t
			done, seen := c.noProcessLeft(t, r)
			session = r.StateString("agentSessionId")
			if check := s.Checks[NoProcessLeft]; check != nil && !t.Failed() {
				check(t, r, done, seen)
			}
		})
		steps(HostRestartResumes, func(t *testing.T) {
			r.T = t
			done, seen := c.hostRestartResumes(t, r, session)
			if check := s.Checks[HostRestartResumes]; check != nil && !t.Failed() {
				check(t, r, done, seen)
			}
		})
	})
}

type contract struct{ s Subject }

// plainTurn: the answer and its reasoning stream and complete; the session
// names the agent's conversation, the agent, its directory, a title and
// the usage.
func (c contract) plainTurn(t *testing.T, r *Rig) (*model.Event, []*model.Event) {
	done, seen := r.Turn("hello there")
	WantCompleted(t, done)
	msg := r.One(model.KindAgentMessage, done.TurnID)
	if msg.Text() != c.s.PlainAnswer || msg.Status != model.StatusCompleted {
		t.Errorf("answer = %q (%s), want %q completed", msg.Text(), msg.Status, c.s.PlainAnswer)
	}
	rs := r.One(model.KindReasoning, done.TurnID)
	if s := rs.Summary(); len(s) != 1 || s[0] != c.s.PlainReasoning || rs.Status != model.StatusCompleted {
		t.Errorf("reasoning = %q (%s), want [%q] completed", s, rs.Status, c.s.PlainReasoning)
	}
	// The answer streamed: deltas reached the client before the item ended.
	deltas := 0
	for _, ev := range seen {
		if ev.Method == model.MethodItemDelta && ev.ItemID == msg.ID {
			deltas++
		}
	}
	if deltas < 2 {
		t.Errorf("%d text deltas for the answer, want it streamed", deltas)
	}
	if u := r.One(model.KindUserMessage, done.TurnID); u.Text() != "hello there" {
		t.Errorf("user message %q", u.Text())
	}
	if r.StateString("agentSessionId") == "" || r.StateString("agent") != c.s.Agent {
		t.Errorf("session state lacks the agent's conversation or the agent: %s", r.State.Encode())
	}
	if title := r.StateString("title"); title != "hello there" && !slices.Contains(c.s.Titles, title) {
		t.Errorf("title %q, want the prompt or one of %q", title, c.s.Titles)
	}
	if r.StateString("cwd") != r.Work {
		t.Errorf("cwd state %q, want %q", r.StateString("cwd"), r.Work)
	}
	usage := string(r.State.Value("usage"))
	if !strings.Contains(usage, `"totalTokens"`) || !strings.Contains(usage, `"contextWindow"`) {
		t.Errorf("usage state = %s, want token totals and the context window", usage)
	}
	r.NoneOpen()
	return done, seen
}

// commandApproved: the command waits for its approval, then runs in the
// session's directory, its output and exit code shown.
func (c contract) commandApproved(t *testing.T, r *Rig) (*model.Event, []*model.Event) {
	turn := r.Submit("run: echo approved-output > proof.txt; cat proof.txt")
	ask, _ := r.Until("the approval", IsApproval)
	tool := r.State.Item(ask.ItemID)
	if tool == nil || tool.Kind != model.KindToolCall || tool.Status != model.StatusWaitingUser || tool.ToolName() != c.s.Shell {
		t.Fatalf("approval is about %+v, want a waiting %s toolCall", tool, c.s.Shell)
	}
	a := r.State.View().Approvals[0]
	if !strings.Contains(a.Summary, c.s.CommandSummary+"echo approved-output") {
		t.Errorf("approval summary %q does not show the command", a.Summary)
	}
	if !slices.Contains(a.Options, string(model.DecisionApprove)) || !slices.Contains(a.Options, string(model.DecisionDeny)) {
		t.Errorf("approval options %v", a.Options)
	}
	r.Respond(ask.ApprovalID, model.DecisionApprove)
	done, seen := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	WantCompleted(t, done)
	tool = r.One(model.KindToolCall, turn)
	code, ok := tool.ExitCode()
	if tool.Status != model.StatusCompleted || !ok || code != 0 || !strings.Contains(tool.Output(), "approved-output") {
		t.Errorf("tool = %s exit %d/%v output %q", tool.Status, code, ok, tool.Output())
	}
	if !strings.Contains(tool.InputText(), "echo approved-output") {
		t.Errorf("tool input %q", tool.InputText())
	}
	if b, err := os.ReadFile(filepath.Join(r.Work, "proof.txt")); err != nil || !strings.Contains(string(b), "approved-output") {
		t.Errorf("the command did not run in the session's directory: %q %v", b, err)
	}
	if len(r.State.View().Approvals) != 0 {
		t.Errorf("approvals still pending: %+v", r.State.View().Approvals)
	}
	r.NoneOpen()
	return done, seen
}

// commandDenied: a denied command does not run, and the turn goes on.
func (c contract) commandDenied(t *testing.T, r *Rig) (*model.Event, []*model.Event) {
	turn := r.Submit("run: touch denied.txt")
	ask, _ := r.Until("the approval", IsApproval)
	r.Respond(ask.ApprovalID, model.DecisionDeny)
	done, seen := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	WantCompleted(t, done)
	tool := r.One(model.KindToolCall, turn)
	if tool.Status != model.StatusFailed || !strings.Contains(tool.ErrorMessage(), c.s.Denied) {
		t.Errorf("denied tool = %s %q, want failed, %s", tool.Status, tool.ErrorMessage(), c.s.Denied)
	}
	if _, err := os.Stat(filepath.Join(r.Work, "denied.txt")); err == nil {
		t.Error("the denied command ran")
	}
	r.NoneOpen()
	return done, seen
}

// approvedForSession: the approval offers approveForSession; taken, the
// turn goes on, and what it covers runs without asking again in the
// session, and asks in another.
func (c contract) approvedForSession(t *testing.T, r *Rig) (*model.Event, []*model.Event) {
	fs := c.s.ForSession
	turn := r.Submit(fs.Prompt)
	ask, _ := r.Until("the approval", IsApproval)
	a := r.State.View().Approvals[0]
	if !slices.Equal(a.Options, []string{string(model.DecisionApprove), string(model.DecisionApproveForSession), string(model.DecisionDeny)}) {
		t.Fatalf("approval options %v, want approve, approveForSession, deny", a.Options)
	}
	if !strings.Contains(a.Summary, fs.Summary) {
		t.Errorf("approval summary %q, want it to show %q", a.Summary, fs.Summary)
	}
	r.Respond(ask.ApprovalID, model.DecisionApproveForSession)
	done, seen := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	WantCompleted(t, done)
	if it := r.State.Item(ask.ItemID); it.Kind != fs.Kind || it.Status != model.StatusCompleted {
		t.Errorf("the approved %s ended %s, want a %s completed", it.Kind, it.Status, fs.Kind)
	}
	if fs.Again == "" {
		return done, seen
	}
	again, seenAgain := r.Turn(fs.Again)
	WantCompleted(t, again)
	for _, ev := range seenAgain {
		if IsApproval(ev) {
			t.Fatalf("what was approved for the session asked again: %+v", ev)
		}
	}
	for _, it := range r.State.Items() {
		if it.TurnID == again.TurnID && (it.Kind == model.KindToolCall || it.Kind == model.KindFileChange) && it.Status != model.StatusCompleted {
			t.Errorf("the %s approved for the session ended %s", it.Kind, it.Status)
		}
	}
	other := r.Fork(t)
	turn = other.Submit(fs.Again)
	ask, _ = other.Until("the other session's approval", IsApproval)
	other.Respond(ask.ApprovalID, model.DecisionApprove)
	otherDone, _ := other.Until("the other session's turn's end", hosttest.TurnCompleted(turn))
	WantCompleted(t, otherDone)
	return again, seenAgain
}

// slowAnswer submits the "slow" scenario and waits until three of its
// deltas showed; it returns the turn and the answer's item id.
func slowAnswer(r *Rig) (turn, msgID string) {
	r.T.Helper()
	turn = r.Submit("slow answer please")
	r.Until("some streamed text", func(ev *model.Event) bool {
		if ev.Method == model.MethodItemStarted && ev.Item.Kind == model.KindAgentMessage {
			msgID = ev.Item.ID
		}
		it := r.State.Item(msgID)
		return it != nil && strings.Count(it.Text(), "slow") >= 3
	})
	return turn, msgID
}

// interrupt: the text that streamed stays, the answer ends stopped, and
// the agent takes the next turn.
func (c contract) interrupt(t *testing.T, r *Rig) (*model.Event, []*model.Event) {
	turn, msgID := slowAnswer(r)
	start := time.Now()
	r.Interrupt(turn)
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	if done.Status != model.StatusStopped {
		t.Fatalf("interrupted turn ended %s %+v", done.Status, done.TurnError)
	}
	t.Logf("the interrupt ended the turn in %v", time.Since(start))
	msg := r.State.Item(msgID)
	if msg.Status != model.StatusStopped || !strings.HasPrefix(msg.Text(), "slow0 slow1 slow2") {
		t.Errorf("interrupted answer = %s %q, want stopped with the streamed text", msg.Status, msg.Text())
	}
	r.NoneOpen()
	next, seen := r.Turn("say: after the interrupt")
	WantCompleted(t, next)
	if got := r.One(model.KindAgentMessage, next.TurnID).Text(); got != "after the interrupt" {
		t.Errorf("answer after the interrupt %q", got)
	}
	if r.PID(r.SessionID) == 0 {
		t.Error("the interrupt cost the session its agent process")
	}
	return next, seen
}

// interruptWhileAsking: the pending approval resolves cancelled, the
// command does not run, and the agent takes the next turn.
func (c contract) interruptWhileAsking(t *testing.T, r *Rig) (*model.Event, []*model.Event) {
	turn := r.Submit("run: touch never.txt")
	ask, _ := r.Until("the approval", IsApproval)
	r.Interrupt(turn)
	var decision string
	done, seen := r.Until("the turn's end", func(ev *model.Event) bool {
		if ev.Method == model.MethodApprovalResolved && ev.ApprovalID == ask.ApprovalID {
			decision = ev.Decision
		}
		return hosttest.TurnCompleted(turn)(ev)
	})
	if done.Status != model.StatusStopped || decision != string(model.DecisionCancelled) {
		t.Fatalf("turn %s, approval %q: want stopped and cancelled", done.Status, decision)
	}
	if len(r.State.View().Approvals) != 0 {
		t.Errorf("approval %s still pending", ask.ApprovalID)
	}
	if tool := r.State.Item(ask.ItemID); tool.IsOpen() || tool.Status == model.StatusCompleted {
		t.Errorf("the command asked about ended %s", tool.Status)
	}
	r.NoneOpen()
	if _, err := os.Stat(filepath.Join(r.Work, "never.txt")); err == nil {
		t.Error("the command ran")
	}
	next, _ := r.Turn("say: carry on")
	WantCompleted(t, next)
	return done, seen
}

// killedMidTurn: the turn fails agentExited saying how the agent ended,
// nothing is left open, and the next turn runs a new agent process that
// continues the same conversation.
func (c contract) killedMidTurn(t *testing.T, r *Rig) (*model.Event, []*model.Event) {
	first, _ := r.Turn("say: the secret word is pumpkin")
	WantCompleted(t, first)
	session := r.StateString("agentSessionId")
	turn := r.Submit("slow answer please")
	r.Until("the answer streaming", IsTextDelta)
	pid := r.PID(r.SessionID)
	if pid == 0 {
		t.Fatal("no agent process serves the session")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	if done.Status != model.StatusFailed || done.TurnError == nil || done.TurnError.Code != "agentExited" || !strings.Contains(done.TurnError.Message, "killed") {
		t.Fatalf("turn of a killed agent ended %s %+v, want failed agentExited", done.Status, done.TurnError)
	}
	r.NoneOpen()
	next, seen := r.Turn("say: what was the word")
	WantCompleted(t, next)
	ContainsAll(t, "the next turn's request", r.LastPrompts(), "the secret word is pumpkin", "what was the word")
	if got := r.StateString("agentSessionId"); got != session {
		t.Errorf("the agent's conversation after the kill %q, want %q", got, session)
	}
	if p := r.PID(r.SessionID); p == pid || p == 0 {
		t.Errorf("agent process %d after the kill (was %d), want a new one", p, pid)
	}
	return next, seen
}

// twoClients: a second client answers the approval the first one's turn
// asked, and both fold the same transcript.
func (c contract) twoClients(t *testing.T, r *Rig) (*model.Event, []*model.Event) {
	other, st2 := r.AnotherClient()
	turn := r.Submit("run: echo shared > shared.txt")
	ask, _ := r.Until("the approval", IsApproval)
	if _, _, err := other.WaitEvent(st2, IsApproval); err != nil {
		t.Fatal(err)
	}
	other.MustCall(t, "approval/respond", map[string]any{"sessionId": r.SessionID, "approvalId": ask.ApprovalID, "decision": model.DecisionApprove}, nil)
	done, seen := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	WantCompleted(t, done)
	if _, _, err := other.WaitEvent(st2, hosttest.TurnCompleted(turn)); err != nil {
		t.Fatal(err)
	}
	if a, b := string(r.State.Encode()), string(st2.Encode()); a != b {
		t.Fatalf("the clients' transcripts differ:\n%s\n%s", a, b)
	}
	return done, seen
}

// noProcessLeft: a host closed mid-turn ends the turn and leaves no agent
// process.
func (c contract) noProcessLeft(t *testing.T, r *Rig) (*model.Event, []*model.Event) {
	first, _ := r.Turn("say: remember the colour teal")
	WantCompleted(t, first)
	turn := r.Submit("slow answer please")
	r.Until("the answer streaming", IsTextDelta)
	pid := r.PID(r.SessionID)
	if pid == 0 {
		t.Fatal("no agent process serves the session")
	}
	closed := make(chan error, 1)
	go func() { closed <- r.Host.Close() }()
	done, seen, err := r.Client.WaitEvent(r.State, hosttest.TurnCompleted(turn))
	if err != nil {
		t.Fatal(err)
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if !Gone(pid, 5*time.Second) {
		t.Fatalf("agent process %d still runs after the host closed", pid)
	}
	return done, seen
}

// hostRestartResumes: a new host on the same data continues the agent's
// conversation session (its id in the session's state) with its context.
func (c contract) hostRestartResumes(t *testing.T, r *Rig, session string) (*model.Event, []*model.Event) {
	r.StartHost()
	r.Subscribe()
	next, seen := r.Turn("say: which colour")
	WantCompleted(t, next)
	if got := r.StateString("agentSessionId"); got != session || got == "" {
		t.Errorf("the agent's conversation after the restart %q, want %q", got, session)
	}
	ContainsAll(t, "the request after a restart", r.LastPrompts(), "remember the colour teal", "which colour")
	return next, seen
}
