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

	"github.com/lookout-sh/lookout/agent/codex/codextest"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// Each test below drives the real codex app-server through a real host
// and asserts the transcript the client folds.

func TestPlainAnswerWithReasoning(t *testing.T) {
	r := newRig(t, rigOptions{})
	done, seen := r.turn("hello there")
	wantCompleted(t, done)
	msg := r.one(model.KindAgentMessage, done.TurnID)
	if msg.Text() != codextest.PlainAnswer || msg.Status != model.StatusCompleted {
		t.Errorf("answer = %q (%s), want %q completed", msg.Text(), msg.Status, codextest.PlainAnswer)
	}
	rs := r.one(model.KindReasoning, done.TurnID)
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
	if u := r.one(model.KindUserMessage, done.TurnID); u.Text() != "hello there" {
		t.Errorf("user message %q", u.Text())
	}
	if r.stateString("agentSessionId") == "" || r.stateString("agent") != "codex" || r.stateString("title") != "hello there" {
		t.Errorf("session state lacks the thread, agent or title: %s", r.st.Encode())
	}
	if r.stateString("cwd") != r.work {
		t.Errorf("cwd state %q, want %q", r.stateString("cwd"), r.work)
	}
	if !strings.Contains(string(r.st.Value("usage")), `"totalTokens"`) || !strings.Contains(string(r.st.Value("usage")), `"contextWindow"`) {
		t.Errorf("usage state = %s, want token totals and the context window", r.st.Value("usage"))
	}
}

func TestCommandApprovedShowsOutputAndExitCode(t *testing.T) {
	r := newRig(t, rigOptions{})
	turn := r.submit("run: echo approved-output")
	ask, _ := r.until("the approval", isApproval)
	tool := r.st.Item(ask.ItemID)
	if tool == nil || tool.Kind != model.KindToolCall || tool.Status != model.StatusWaitingUser {
		t.Fatalf("approval is about %+v, want a waiting toolCall", tool)
	}
	a := r.st.View().Approvals[0]
	if !strings.Contains(a.Summary, "echo approved-output") {
		t.Errorf("approval summary %q does not show the command", a.Summary)
	}
	if !slices.Contains(a.Options, "approve") || !slices.Contains(a.Options, "deny") {
		t.Errorf("approval options %v", a.Options)
	}
	r.respond(ask.ApprovalID, "approve")
	done, _ := r.until("the turn's end", hosttest.TurnCompleted(turn))
	wantCompleted(t, done)
	tool = r.one(model.KindToolCall, turn)
	code, ok := tool.ExitCode()
	if tool.Status != model.StatusCompleted || !ok || code != 0 || !strings.Contains(tool.Output(), "approved-output") {
		t.Errorf("tool = %s exit %d/%v output %q", tool.Status, code, ok, tool.Output())
	}
	if !strings.Contains(tool.InputText(), "echo approved-output") || tool.ToolName() != "shell" {
		t.Errorf("tool input %q name %q", tool.InputText(), tool.ToolName())
	}
	if !strings.HasPrefix(r.one(model.KindAgentMessage, turn).Text(), codextest.CommandAnswerPrefix) {
		t.Errorf("no answer after the command")
	}
	if len(r.st.View().Approvals) != 0 {
		t.Errorf("approvals still pending: %+v", r.st.View().Approvals)
	}
}

func TestCommandDeniedDoesNotRun(t *testing.T) {
	r := newRig(t, rigOptions{})
	turn := r.submit("run: touch denied.txt")
	ask, _ := r.until("the approval", isApproval)
	r.respond(ask.ApprovalID, "deny")
	done, _ := r.until("the turn's end", hosttest.TurnCompleted(turn))
	wantCompleted(t, done)
	tool := r.one(model.KindToolCall, turn)
	if tool.Status != model.StatusFailed || !strings.Contains(tool.ErrorMessage(), "declined") {
		t.Errorf("denied tool = %s %q, want failed, declined", tool.Status, tool.ErrorMessage())
	}
	if _, err := os.Stat(filepath.Join(r.work, "denied.txt")); err == nil {
		t.Error("the denied command ran")
	}
}

func TestPatchIsAFileChangeWithItsDiff(t *testing.T) {
	r := newRig(t, rigOptions{})
	done, _ := r.turn("patch: notes.txt")
	wantCompleted(t, done)
	fc := r.one(model.KindFileChange, done.TurnID)
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
	done, _ = r.turn("patch update: notes.txt")
	wantCompleted(t, done)
	up := r.one(model.KindFileChange, done.TurnID).FileChanges()
	if len(up) != 1 || up[0].Kind != "update" || !strings.Contains(up[0].Diff, "-"+codextest.PatchLine) || !strings.Contains(up[0].Diff, "+"+codextest.PatchUpdatedLine) {
		t.Errorf("update = %+v", up)
	}
}

func TestFileChangeApprovalOffersApproveForSession(t *testing.T) {
	r := newRig(t, rigOptions{home: codextest.HomeOptions{Sandbox: "read-only"}})
	turn := r.submit("patch: asked.txt")
	ask, _ := r.until("the approval", isApproval)
	fc := r.st.Item(ask.ItemID)
	if fc == nil || fc.Kind != model.KindFileChange {
		t.Fatalf("approval is about %+v, want the fileChange", fc)
	}
	a := r.st.View().Approvals[0]
	if !slices.Equal(a.Options, []string{"approve", "approveForSession", "deny"}) || !strings.Contains(a.Summary, "asked.txt") {
		t.Errorf("approval %q options %v", a.Summary, a.Options)
	}
	r.respond(ask.ApprovalID, "approveForSession")
	done, _ := r.until("the turn's end", hosttest.TurnCompleted(turn))
	wantCompleted(t, done)
	if st := r.one(model.KindFileChange, turn).Status; st != model.StatusCompleted {
		t.Errorf("approved change ended %s", st)
	}
}

func TestModelHTTP500FailsTheTurnReadably(t *testing.T) {
	r := newRig(t, rigOptions{})
	done, _ := r.turn("http 500 please")
	if done.Status != model.StatusFailed || done.TurnError == nil || done.TurnError.Code == "" || done.TurnError.Message == "" {
		t.Fatalf("turn ended %s %+v, want failed with a code and message", done.Status, done.TurnError)
	}
	if e := r.one(model.KindError, done.TurnID); e.ErrorMessage() == "" {
		t.Error("the error item has no message")
	}
	// The session goes on.
	next, _ := r.turn("say: still here")
	wantCompleted(t, next)
}

func TestRetryNoticeIsAWarning(t *testing.T) {
	r := newRig(t, rigOptions{fake: codextest.FakeOptions{FailAttempts: 1}, home: codextest.HomeOptions{StreamRetries: 2}})
	done, seen := r.turn("retry please")
	wantCompleted(t, done)
	var w *model.Warning
	for _, ev := range seen {
		if ev.Method == model.MethodWarning && ev.Warning.WillRetry {
			w = ev.Warning
		}
	}
	if w == nil || !w.Retryable || w.Attempt != 1 || w.Message == "" {
		t.Fatalf("retry warning = %+v", w)
	}
	if len(r.items(model.KindError, done.TurnID)) != 0 {
		t.Error("a retried request left an error item in the history")
	}
	if r.one(model.KindAgentMessage, done.TurnID).Text() != codextest.PlainAnswer {
		t.Error("no answer after the retry")
	}
}

func TestInterruptKeepsStreamedText(t *testing.T) {
	r := newRig(t, rigOptions{})
	turn := r.submit("slow answer please")
	var msgID string
	r.until("some streamed text", func(ev *model.Event) bool {
		if ev.Method == model.MethodItemStarted && ev.Item.Kind == model.KindAgentMessage {
			msgID = ev.Item.ID
		}
		it := r.st.Item(msgID)
		return it != nil && strings.Count(it.Text(), "slow") >= 3
	})
	r.c.MustCall(t, "turn/interrupt", map[string]any{"sessionId": r.sid, "turnId": turn}, nil)
	done, _ := r.until("the turn's end", hosttest.TurnCompleted(turn))
	if done.Status != model.StatusStopped {
		t.Fatalf("interrupted turn ended %s %+v", done.Status, done.TurnError)
	}
	msg := r.st.Item(msgID)
	if msg.Status != model.StatusStopped || !strings.HasPrefix(msg.Text(), "slow0 slow1 slow2") {
		t.Errorf("interrupted answer = %s %q, want stopped with the streamed text", msg.Status, msg.Text())
	}
	next, _ := r.turn("say: after the interrupt")
	wantCompleted(t, next)
}

func TestCodexKilledMidTurnThenNextTurnKeepsContext(t *testing.T) {
	r := newRig(t, rigOptions{})
	first, _ := r.turn("say: the secret word is pumpkin")
	wantCompleted(t, first)
	turn := r.submit("slow answer please")
	r.until("the answer streaming", func(ev *model.Event) bool { return ev.Method == model.MethodItemDelta && ev.Field == "text" })
	pid := r.agent.ProcessID(r.sid)
	if pid == 0 {
		t.Fatal("no app-server runs for the session")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	done, _ := r.until("the turn's end", hosttest.TurnCompleted(turn))
	if done.Status != model.StatusFailed || done.TurnError == nil || done.TurnError.Code != "agentExited" || !strings.Contains(done.TurnError.Message, "killed") {
		t.Fatalf("turn of a killed Codex ended %s %+v, want failed agentExited", done.Status, done.TurnError)
	}
	for _, it := range r.st.Items() {
		if it.IsOpen() {
			t.Errorf("item %s (%s) left open", it.ID, it.Kind)
		}
	}
	next, _ := r.turn("say: what was the word")
	wantCompleted(t, next)
	containsAll(t, "the next turn's request", r.lastTurnPrompts(), "the secret word is pumpkin", "what was the word")
	if r.agent.ProcessID(r.sid) == pid {
		t.Error("the dead app-server is still the session's")
	}
}

func TestHostRestartResumesTheThread(t *testing.T) {
	r := newRig(t, rigOptions{})
	first, _ := r.turn("say: remember the colour teal")
	wantCompleted(t, first)
	thread := r.stateString("agentSessionId")
	if err := r.h.Close(); err != nil {
		t.Fatal(err)
	}
	r.startHost()
	r.subscribe()
	next, _ := r.turn("say: which colour")
	wantCompleted(t, next)
	if got := r.stateString("agentSessionId"); got != thread {
		t.Errorf("thread after restart %q, want %q", got, thread)
	}
	containsAll(t, "the request after a restart", r.lastTurnPrompts(), "remember the colour teal", "which colour")
}

func TestTwoClientsSeeTheSameTranscript(t *testing.T) {
	r := newRig(t, rigOptions{})
	other := hosttest.Dial(t, r.h)
	sub, err := other.Subscribe(r.sid, "", "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	st2 := model.NewState(r.sid)
	if _, err := st2.LoadSnapshot(r.sid, sub.Epoch, *sub.Snapshot); err != nil {
		t.Fatal(err)
	}
	turn := r.submit("run: echo shared")
	ask, _ := r.until("the approval", isApproval)
	// The second client answers the approval the first one's turn asked.
	if _, _, err := other.WaitEvent(st2, isApproval); err != nil {
		t.Fatal(err)
	}
	other.MustCall(t, "approval/respond", map[string]any{"sessionId": r.sid, "approvalId": ask.ApprovalID, "decision": "approve"}, nil)
	done, _ := r.until("the turn's end", hosttest.TurnCompleted(turn))
	wantCompleted(t, done)
	if _, _, err := other.WaitEvent(st2, hosttest.TurnCompleted(turn)); err != nil {
		t.Fatal(err)
	}
	if a, b := string(r.st.Encode()), string(st2.Encode()); a != b {
		t.Fatalf("the clients' transcripts differ:\n%s\n%s", a, b)
	}
}

func TestHostCloseLeavesNoCodexProcess(t *testing.T) {
	r := newRig(t, rigOptions{})
	turn := r.submit("slow answer please")
	r.until("the answer streaming", func(ev *model.Event) bool { return ev.Method == model.MethodItemDelta && ev.Field == "text" })
	pid := r.agent.ProcessID(r.sid)
	if pid == 0 {
		t.Fatal("no app-server runs")
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
			t.Fatalf("app-server %d still runs after the host closed", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var _ = host.DecisionApprove

func TestLongCodexSessionPagesOlderHistory(t *testing.T) {
	r := newRig(t, rigOptions{})
	done, _ := r.turn("many: 520")
	wantCompleted(t, done)
	if n := len(r.items(model.KindAgentMessage, done.TurnID)); n != 520 {
		t.Fatalf("%d answer items, want 520", n)
	}
	// A late client opens the newest 100 items and pages back to the start.
	late := hosttest.Dial(t, r.h)
	sub, err := late.Subscribe(r.sid, "", "", 100)
	if err != nil {
		t.Fatal(err)
	}
	st := model.NewState(r.sid)
	if _, err := st.LoadSnapshot(r.sid, sub.Epoch, *sub.Snapshot); err != nil {
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
		late.MustCall(t, "view/page", map[string]any{"sessionId": r.sid, "epoch": sub.Epoch, "direction": "before",
			"cursor": model.FormatCursor(r.sid, st.OldestPosition()), "limit": 150}, &p)
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
	if got, want := string(st.Encode()), string(r.st.Encode()); got != want {
		t.Fatalf("paged transcript differs from the live one (%d vs %d items)", st.Len(), r.st.Len())
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
	done, _ := r.turn("disconnect please")
	wantCompleted(t, done)
	var completed, stopped int
	for _, it := range r.items(model.KindAgentMessage, done.TurnID) {
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
	turn := r.submit("run: touch never.txt")
	ask, _ := r.until("the approval", isApproval)
	r.c.MustCall(t, "turn/interrupt", map[string]any{"sessionId": r.sid, "turnId": turn}, nil)
	var decision string
	done, _ := r.until("the turn's end", func(ev *model.Event) bool {
		if ev.Method == model.MethodApprovalResolved && ev.ApprovalID == ask.ApprovalID {
			decision = ev.Decision
		}
		return hosttest.TurnCompleted(turn)(ev)
	})
	if done.Status != model.StatusStopped || decision != "cancelled" {
		t.Fatalf("turn %s, approval %q: want stopped and cancelled", done.Status, decision)
	}
	if st := r.st.Item(ask.ItemID).Status; st != model.StatusStopped {
		t.Errorf("the command waiting for approval ended %s, want stopped", st)
	}
	if len(r.st.View().Approvals) != 0 {
		t.Error("an approval is still pending")
	}
	if _, err := os.Stat(filepath.Join(r.work, "never.txt")); err == nil {
		t.Error("the command ran")
	}
	next, _ := r.turn("say: carry on")
	wantCompleted(t, next)
}
