package codex_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// Each test below drives the real codex app-server through a real host
// and asserts the transcript the client folds.

func TestPlainAnswerWithReasoning(t *testing.T) {
	r := newRig(t, rigOptions{})
	done, seen := r.Turn("hello there")
	agenttest.WantCompleted(t, done)
	msg := r.One(model.KindAgentMessage, done.TurnID)
	if msg.Text() != codextest.PlainAnswer || msg.Status != model.StatusCompleted {
		t.Errorf("answer = %q (%s), want %q completed", msg.Text(), msg.Status, codextest.PlainAnswer)
	}
	rs := r.One(model.KindReasoning, done.TurnID)
	if s := rs.Summary(); len(s) != 1 || s[0] != codextest.PlainReasoning {
		t.Errorf("reasoning summary = %q, want [%q]", s, codextest.PlainReasoning)
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
	if r.StateString("agentSessionId") == "" || r.StateString("agent") != "codex" || r.StateString("title") != "hello there" {
		t.Errorf("session state lacks the thread, agent or title: %s", r.State.Encode())
	}
	if r.StateString("cwd") != r.work {
		t.Errorf("cwd state %q, want %q", r.StateString("cwd"), r.work)
	}
	if !strings.Contains(string(r.State.Value("usage")), `"totalTokens"`) || !strings.Contains(string(r.State.Value("usage")), `"contextWindow"`) {
		t.Errorf("usage state = %s, want token totals and the context window", r.State.Value("usage"))
	}
}

func TestCommandApprovedShowsOutputAndExitCode(t *testing.T) {
	r := newRig(t, rigOptions{})
	turn := r.Submit("run: echo approved-output")
	ask, _ := r.Until("the approval", agenttest.IsApproval)
	tool := r.State.Item(ask.ItemID)
	if tool == nil || tool.Kind != model.KindToolCall || tool.Status != model.StatusWaitingUser {
		t.Fatalf("approval is about %+v, want a waiting toolCall", tool)
	}
	a := r.State.View().Approvals[0]
	if !strings.Contains(a.Summary, "echo approved-output") {
		t.Errorf("approval summary %q does not show the command", a.Summary)
	}
	if !slices.Contains(a.Options, "approve") || !slices.Contains(a.Options, "deny") {
		t.Errorf("approval options %v", a.Options)
	}
	r.Respond(ask.ApprovalID, "approve")
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	agenttest.WantCompleted(t, done)
	tool = r.One(model.KindToolCall, turn)
	code, ok := tool.ExitCode()
	if tool.Status != model.StatusCompleted || !ok || code != 0 || !strings.Contains(tool.Output(), "approved-output") {
		t.Errorf("tool = %s exit %d/%v output %q", tool.Status, code, ok, tool.Output())
	}
	if !strings.Contains(tool.InputText(), "echo approved-output") || tool.ToolName() != "shell" {
		t.Errorf("tool input %q name %q", tool.InputText(), tool.ToolName())
	}
	if !strings.HasPrefix(r.One(model.KindAgentMessage, turn).Text(), codextest.CommandAnswerPrefix) {
		t.Errorf("no answer after the command")
	}
	if len(r.State.View().Approvals) != 0 {
		t.Errorf("approvals still pending: %+v", r.State.View().Approvals)
	}
}

func TestCommandDeniedDoesNotRun(t *testing.T) {
	r := newRig(t, rigOptions{})
	turn := r.Submit("run: touch denied.txt")
	ask, _ := r.Until("the approval", agenttest.IsApproval)
	r.Respond(ask.ApprovalID, "deny")
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	agenttest.WantCompleted(t, done)
	tool := r.One(model.KindToolCall, turn)
	if tool.Status != model.StatusFailed || !strings.Contains(tool.ErrorMessage(), "declined") {
		t.Errorf("denied tool = %s %q, want failed, declined", tool.Status, tool.ErrorMessage())
	}
	if _, err := os.Stat(filepath.Join(r.work, "denied.txt")); err == nil {
		t.Error("the denied command ran")
	}
}

// TestDenyReasonReachesTheModel: a deny's reason reaches Codex's model in
// the model call after the refusal, after the refused command's result
// (issue 25: Codex's decisions carry no message; the bridge steers the
// turn with it).
func TestDenyReasonReachesTheModel(t *testing.T) {
	const reason = "Do not touch files; list them instead."
	r := newRig(t, rigOptions{})
	turn := r.Submit("run: touch reasoned.txt")
	ask, _ := r.Until("the approval", agenttest.IsApproval)
	before := len(r.fake.Requests())
	r.Deny(ask.ApprovalID, reason)
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	agenttest.WantCompleted(t, done)
	reqs := r.fake.Requests()[before:]
	if len(reqs) == 0 {
		t.Fatal("no model call after the deny")
	}
	next := reqs[0]
	refused, told := -1, -1
	for i, it := range next.Input {
		switch {
		case it.Type == "function_call_output" && strings.Contains(it.Output, "rejected"):
			refused = i
		case it.IsPrompt() && it.Text == reason:
			told = i
		}
	}
	if refused < 0 || told < refused {
		t.Errorf("the model call after the deny has the refusal at %d and the reason at %d, want the reason after it; input %+v", refused, told, next.Input)
	}
	if n := len(r.Items(model.KindUserMessage, turn)); n != 1 {
		t.Errorf("%d user messages in the turn, want the prompt alone (the reason is not repeated)", n)
	}
	if _, err := os.Stat(filepath.Join(r.work, "reasoned.txt")); err == nil {
		t.Error("the denied command ran")
	}
}

func TestPatchIsAFileChangeWithItsDiff(t *testing.T) {
	r := newRig(t, rigOptions{})
	done, _ := r.Turn("patch: notes.txt")
	agenttest.WantCompleted(t, done)
	fc := r.One(model.KindFileChange, done.TurnID)
	ch := fc.FileChanges()
	if fc.Status != model.StatusCompleted || len(ch) != 1 {
		t.Fatalf("fileChange = %s %+v", fc.Status, ch)
	}
	if ch[0].Path != "notes.txt" || ch[0].Kind != "add" || !strings.Contains(ch[0].Diff, "+"+codextest.PatchLine) {
		t.Errorf("change = %+v, want notes.txt added with its line", ch[0])
	}
	if b, err := os.ReadFile(filepath.Join(r.work, "notes.txt")); err != nil || !strings.Contains(string(b), codextest.PatchLine) {
		t.Errorf("the patch did not apply: %q %v", b, err)
	}
	// An update of the same file is a unified diff of the change.
	done, _ = r.Turn("patch update: notes.txt")
	agenttest.WantCompleted(t, done)
	up := r.One(model.KindFileChange, done.TurnID).FileChanges()
	if len(up) != 1 || up[0].Kind != "update" || !strings.Contains(up[0].Diff, "-"+codextest.PatchLine) || !strings.Contains(up[0].Diff, "+"+codextest.PatchUpdatedLine) {
		t.Errorf("update = %+v", up)
	}
}

func TestFileChangeApprovalOffersApproveForSession(t *testing.T) {
	r := newRig(t, rigOptions{home: codextest.HomeOptions{Sandbox: "read-only"}})
	turn := r.Submit("patch: asked.txt")
	ask, _ := r.Until("the approval", agenttest.IsApproval)
	fc := r.State.Item(ask.ItemID)
	if fc == nil || fc.Kind != model.KindFileChange {
		t.Fatalf("approval is about %+v, want the fileChange", fc)
	}
	a := r.State.View().Approvals[0]
	if !slices.Equal(a.Options, []string{"approve", "approveForSession", "deny"}) || !strings.Contains(a.Summary, "asked.txt") {
		t.Errorf("approval %q options %v", a.Summary, a.Options)
	}
	r.Respond(ask.ApprovalID, "approveForSession")
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	agenttest.WantCompleted(t, done)
	if st := r.One(model.KindFileChange, turn).Status; st != model.StatusCompleted {
		t.Errorf("approved change ended %s", st)
	}
}

func TestModelHTTP500FailsTheTurnReadably(t *testing.T) {
	r := newRig(t, rigOptions{})
	done, _ := r.Turn("http 500 please")
	if done.Status != model.StatusFailed || done.TurnError == nil || done.TurnError.Code == "" || done.TurnError.Message == "" {
		t.Fatalf("turn ended %s %+v, want failed with a code and message", done.Status, done.TurnError)
	}
	if e := r.One(model.KindError, done.TurnID); e.ErrorMessage() == "" {
		t.Error("the error item has no message")
	}
	// The session goes on.
	next, _ := r.Turn("say: still here")
	agenttest.WantCompleted(t, next)
}

func TestRetryNoticeIsAWarning(t *testing.T) {
	r := newRig(t, rigOptions{fake: codextest.FakeOptions{FailAttempts: 1}, home: codextest.HomeOptions{StreamRetries: 2}})
	done, seen := r.Turn("retry please")
	agenttest.WantCompleted(t, done)
	var w *model.Warning
	for _, ev := range seen {
		if ev.Method == model.MethodWarning && ev.Warning.WillRetry {
			w = ev.Warning
		}
	}
	if w == nil || !w.Retryable || w.Attempt != 1 || w.Message == "" {
		t.Fatalf("retry warning = %+v", w)
	}
	if len(r.Items(model.KindError, done.TurnID)) != 0 {
		t.Error("a retried request left an error item in the history")
	}
	if r.One(model.KindAgentMessage, done.TurnID).Text() != codextest.PlainAnswer {
		t.Error("no answer after the retry")
	}
}

func TestInterruptKeepsStreamedText(t *testing.T) {
	r := newRig(t, rigOptions{})
	turn := r.Submit("slow answer please")
	var msgID string
	r.Until("some streamed text", func(ev *model.Event) bool {
		if ev.Method == model.MethodItemStarted && ev.Item.Kind == model.KindAgentMessage {
			msgID = ev.Item.ID
		}
		it := r.State.Item(msgID)
		return it != nil && strings.Count(it.Text(), "slow") >= 3
	})
	r.Interrupt(turn)
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	if done.Status != model.StatusStopped {
		t.Fatalf("interrupted turn ended %s %+v", done.Status, done.TurnError)
	}
	msg := r.State.Item(msgID)
	if msg.Status != model.StatusStopped || !strings.HasPrefix(msg.Text(), "slow0 slow1 slow2") {
		t.Errorf("interrupted answer = %s %q, want stopped with the streamed text", msg.Status, msg.Text())
	}
	next, _ := r.Turn("say: after the interrupt")
	agenttest.WantCompleted(t, next)
}

func TestCodexKilledMidTurnThenNextTurnKeepsContext(t *testing.T) {
	r := newRig(t, rigOptions{})
	first, _ := r.Turn("say: the secret word is pumpkin")
	agenttest.WantCompleted(t, first)
	turn := r.Submit("slow answer please")
	r.Until("the answer streaming", agenttest.IsTextDelta)
	pid := r.agent.ProcessID(r.SessionID)
	if pid == 0 {
		t.Fatal("no app-server runs for the session")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	if done.Status != model.StatusFailed || done.TurnError == nil || done.TurnError.Code != "agentExited" || !strings.Contains(done.TurnError.Message, "killed") {
		t.Fatalf("turn of a killed Codex ended %s %+v, want failed agentExited", done.Status, done.TurnError)
	}
	for _, it := range r.State.Items() {
		if it.IsOpen() {
			t.Errorf("item %s (%s) left open", it.ID, it.Kind)
		}
	}
	next, _ := r.Turn("say: what was the word")
	agenttest.WantCompleted(t, next)
	agenttest.ContainsAll(t, "the next turn's request", r.lastTurnPrompts(), "the secret word is pumpkin", "what was the word")
	if r.agent.ProcessID(r.SessionID) == pid {
		t.Error("the dead app-server is still the session's")
	}
}

func TestHostRestartResumesTheThread(t *testing.T) {
	r := newRig(t, rigOptions{})
	first, _ := r.Turn("say: remember the colour teal")
	agenttest.WantCompleted(t, first)
	thread := r.StateString("agentSessionId")
	if err := r.Host.Close(); err != nil {
		t.Fatal(err)
	}
	r.StartHost()
	r.Subscribe()
	next, _ := r.Turn("say: which colour")
	agenttest.WantCompleted(t, next)
	if got := r.StateString("agentSessionId"); got != thread {
		t.Errorf("thread after restart %q, want %q", got, thread)
	}
	agenttest.ContainsAll(t, "the request after a restart", r.lastTurnPrompts(), "remember the colour teal", "which colour")
}

func TestTwoClientsSeeTheSameTranscript(t *testing.T) {
	r := newRig(t, rigOptions{})
	other, st2 := r.AnotherClient()
	turn := r.Submit("run: echo shared")
	ask, _ := r.Until("the approval", agenttest.IsApproval)
	// The second client answers the approval the first one's turn asked.
	if _, _, err := other.WaitEvent(st2, agenttest.IsApproval); err != nil {
		t.Fatal(err)
	}
	other.MustCall(t, "approval/respond", map[string]any{"sessionId": r.SessionID, "approvalId": ask.ApprovalID, "decision": "approve"}, nil)
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	agenttest.WantCompleted(t, done)
	if _, _, err := other.WaitEvent(st2, hosttest.TurnCompleted(turn)); err != nil {
		t.Fatal(err)
	}
	if a, b := string(r.State.Encode()), string(st2.Encode()); a != b {
		t.Fatalf("the clients' transcripts differ:\n%s\n%s", a, b)
	}
}

func TestHostCloseLeavesNoCodexProcess(t *testing.T) {
	r := newRig(t, rigOptions{})
	turn := r.Submit("slow answer please")
	r.Until("the answer streaming", agenttest.IsTextDelta)
	pid := r.agent.ProcessID(r.SessionID)
	if pid == 0 {
		t.Fatal("no app-server runs")
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
		t.Fatalf("app-server %d still runs after the host closed", pid)
	}
}

func TestLongCodexSessionPagesOlderHistory(t *testing.T) {
	r := newRig(t, rigOptions{})
	done, _ := r.Turn("many: 520")
	agenttest.WantCompleted(t, done)
	if n := len(r.Items(model.KindAgentMessage, done.TurnID)); n != 520 {
		t.Fatalf("%d answer items, want 520", n)
	}
	// A late client opens the newest 100 items and pages back to the start.
	late := hosttest.Dial(t, r.Host)
	sub, err := late.Subscribe(r.SessionID, "", "", 100)
	if err != nil {
		t.Fatal(err)
	}
	st := model.NewState(r.SessionID)
	if _, err := st.LoadSnapshot(r.SessionID, sub.Epoch, *sub.Snapshot); err != nil {
		t.Fatal(err)
	}
	hasOlder, pages := sub.Snapshot.HasOlder, 0
	for hasOlder {
		var p struct {
			Events []struct {
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			} `json:"events"`
			HasOlder bool `json:"hasOlder"`
		}
		late.MustCall(t, "view/page", map[string]any{"sessionId": r.SessionID, "epoch": sub.Epoch, "direction": "before",
			"cursor": model.FormatCursor(r.SessionID, st.OldestPosition()), "limit": 150}, &p)
		var evs []*model.Event
		for _, e := range p.Events {
			ev, err := model.DecodeNotification(e.Method, e.Params)
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, ev)
		}
		if err := st.ApplyOlder(evs, p.HasOlder); err != nil {
			t.Fatal(err)
		}
		hasOlder, pages = p.HasOlder, pages+1
	}
	if pages < 3 {
		t.Errorf("%d before pages for 520+ items, want several", pages)
	}
	if got, want := string(st.Encode()), string(r.State.Encode()); got != want {
		t.Fatalf("paged transcript differs from the live one (%d vs %d items)", st.Len(), r.State.Len())
	}
	msgs := 0
	for i, it := range st.Items() {
		if it.Kind == model.KindAgentMessage {
			msgs++
			if want := fmt.Sprintf("message %d of 520", msgs); it.Text() != want {
				t.Fatalf("item %d says %q, want %q", i, it.Text(), want)
			}
		}
	}
}

func TestDisconnectedAttemptIsStoppedNotDuplicated(t *testing.T) {
	r := newRig(t, rigOptions{fake: codextest.FakeOptions{FailAttempts: 1}, home: codextest.HomeOptions{StreamRetries: 2}})
	done, _ := r.Turn("disconnect please")
	agenttest.WantCompleted(t, done)
	var completed, stopped int
	for _, it := range r.Items(model.KindAgentMessage, done.TurnID) {
		switch it.Status {
		case model.StatusCompleted:
			completed++
			if it.Text() != codextest.PlainAnswer {
				t.Errorf("completed answer %q", it.Text())
			}
		case model.StatusStopped:
			stopped++
		default:
			t.Errorf("answer item ended %s", it.Status)
		}
	}
	if completed != 1 || stopped != 1 {
		t.Errorf("%d completed and %d stopped answers, want the retried one stopped and one complete answer", completed, stopped)
	}
}

func TestInterruptWhileAnApprovalWaitsCancelsIt(t *testing.T) {
	r := newRig(t, rigOptions{})
	turn := r.Submit("run: touch never.txt")
	ask, _ := r.Until("the approval", agenttest.IsApproval)
	r.Interrupt(turn)
	var decision string
	done, _ := r.Until("the turn's end", func(ev *model.Event) bool {
		if ev.Method == model.MethodApprovalResolved && ev.ApprovalID == ask.ApprovalID {
			decision = ev.Decision
		}
		return hosttest.TurnCompleted(turn)(ev)
	})
	if done.Status != model.StatusStopped || decision != "cancelled" {
		t.Fatalf("turn %s, approval %q: want stopped and cancelled", done.Status, decision)
	}
	if st := r.State.Item(ask.ItemID).Status; st != model.StatusStopped {
		t.Errorf("the command waiting for approval ended %s, want stopped", st)
	}
	if len(r.State.View().Approvals) != 0 {
		t.Error("an approval is still pending")
	}
	if _, err := os.Stat(filepath.Join(r.work, "never.txt")); err == nil {
		t.Error("the command ran")
	}
	next, _ := r.Turn("say: carry on")
	agenttest.WantCompleted(t, next)
}
