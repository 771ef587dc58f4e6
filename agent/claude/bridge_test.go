package claude_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/claude/claudetest"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// Each test below drives the real Claude Code through a real host and
// asserts the transcript the client folds.

func TestPlainAnswerWithThinking(t *testing.T) {
	r := newRig(t, rigOptions{})
	done, seen := r.Turn("hello there")
	agenttest.WantCompleted(t, done)
	msg := r.One(model.KindAgentMessage, done.TurnID)
	if msg.Text() != claudetest.PlainAnswer || msg.Status != model.StatusCompleted {
		t.Errorf("answer = %q (%s), want %q completed", msg.Text(), msg.Status, claudetest.PlainAnswer)
	}
	rs := r.One(model.KindReasoning, done.TurnID)
	if s := rs.Summary(); len(s) != 1 || s[0] != claudetest.PlainThinking || rs.Status != model.StatusCompleted {
		t.Errorf("reasoning = %q (%s), want [%q]", s, rs.Status, claudetest.PlainThinking)
	}
	// Both streamed: deltas reached the client before the items ended.
	deltas := map[string]int{}
	for _, ev := range seen {
		if ev.Method == model.MethodItemDelta {
			deltas[ev.ItemID+" "+ev.Field]++
		}
	}
	if deltas[msg.ID+" text"] < 3 || deltas[rs.ID+" summary.0"] < 2 {
		t.Errorf("deltas %v, want the answer and the thinking streamed", deltas)
	}
	if u := r.One(model.KindUserMessage, done.TurnID); u.Text() != "hello there" {
		t.Errorf("user message %q", u.Text())
	}
	if r.StateString("agentSessionId") == "" || r.StateString("agent") != "claude" || r.StateString("title") != "hello there" {
		t.Errorf("session state lacks the session, agent or title: %s", r.State.Encode())
	}
	if r.StateString("cwd") != r.work || r.StateString("model") == "" {
		t.Errorf("cwd %q (want %q), model %q", r.StateString("cwd"), r.work, r.StateString("model"))
	}
	usage := string(r.State.Value("usage"))
	for _, k := range []string{`"totalTokens"`, `"contextTokens"`, `"contextWindow"`, `"cachedInputTokens"`} {
		if !strings.Contains(usage, k) {
			t.Errorf("usage state = %s, lacks %s", usage, k)
		}
	}
	if cost := string(r.State.Value("costUsd")); cost == "" || cost == "0" {
		t.Errorf("costUsd state = %q", cost)
	}
}

func TestCommandApprovedShowsOutputAndExitCode(t *testing.T) {
	r := newRig(t, rigOptions{})
	turn := r.Submit("run: echo approved-output > proof.txt; cat proof.txt")
	ask, _ := r.Until("the approval", agenttest.IsApproval)
	tool := r.State.Item(ask.ItemID)
	if tool == nil || tool.Kind != model.KindToolCall || tool.Status != model.StatusWaitingUser || tool.ToolName() != "Bash" {
		t.Fatalf("approval is about %+v, want a waiting Bash toolCall", tool)
	}
	a := r.State.View().Approvals[0]
	if !strings.HasPrefix(a.Summary, "Run: echo approved-output") {
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
	if !strings.Contains(tool.InputText(), "echo approved-output") || !strings.Contains(string(tool.Field("input")), `"command"`) {
		t.Errorf("tool input %q / %s", tool.InputText(), tool.Field("input"))
	}
	answers := r.Items(model.KindAgentMessage, turn)
	if len(answers) != 2 || answers[0].Text() != claudetest.RunPreamble || !strings.HasPrefix(answers[1].Text(), claudetest.CommandAnswerPrefix) {
		t.Errorf("answers around the command: %d", len(answers))
	}
	if b, err := os.ReadFile(filepath.Join(r.work, "proof.txt")); err != nil || !strings.Contains(string(b), "approved-output") {
		t.Errorf("the command did not run in the session's directory: %q %v", b, err)
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
	if tool.Status != model.StatusFailed || !strings.Contains(tool.ErrorMessage(), "denied") {
		t.Errorf("denied tool = %s %q, want failed, denied", tool.Status, tool.ErrorMessage())
	}
	if _, err := os.Stat(filepath.Join(r.work, "denied.txt")); err == nil {
		t.Error("the denied command ran")
	}
	if !strings.HasPrefix(r.Last(model.KindAgentMessage, turn).Text(), claudetest.ToolErrorPrefix) {
		t.Error("the model was not told of the denial")
	}
}

// TestDenyReasonReachesTheModel: a deny's reason goes to Claude Code with
// the permission response's message, and the model's next request carries
// it in the refused tool's result (issue 25).
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
		t.Fatal("no model request after the deny")
	}
	var result *claudetest.Block
	for _, m := range reqs[0].Messages {
		for i, b := range m.Blocks {
			if b.Type == "tool_result" {
				result = &m.Blocks[i]
			}
		}
	}
	if result == nil || !result.IsError || !strings.Contains(result.Text, reason) {
		t.Errorf("the next request's tool result is %+v, want an error carrying %q", result, reason)
	}
	if _, err := os.Stat(filepath.Join(r.work, "reasoned.txt")); err == nil {
		t.Error("the denied command ran")
	}
}

func TestApproveForSessionStopsAskingForTheSameCommand(t *testing.T) {
	r := newRig(t, rigOptions{})
	turn := r.Submit("run: touch again.txt")
	ask, _ := r.Until("the approval", agenttest.IsApproval)
	if opts := r.State.View().Approvals[0].Options; !slices.Equal(opts, []string{"approve", "approveForSession", "deny"}) {
		t.Fatalf("options %v", opts)
	}
	r.Respond(ask.ApprovalID, "approveForSession")
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	agenttest.WantCompleted(t, done)
	done, seen := r.Turn("run: touch again.txt")
	agenttest.WantCompleted(t, done)
	for _, ev := range seen {
		if agenttest.IsApproval(ev) {
			t.Fatal("the command approved for the session asked again")
		}
	}
	if tool := r.One(model.KindToolCall, done.TurnID); tool.Status != model.StatusCompleted {
		t.Errorf("second run: %s", tool.Status)
	}
	// Nothing was written to the project's settings.
	if _, err := os.Stat(filepath.Join(r.work, ".claude")); err == nil {
		t.Error("approving for the session wrote .claude/ settings into the project")
	}
}

func TestEditsAreFileChangesWithDiffs(t *testing.T) {
	r := newRig(t, rigOptions{})
	path := filepath.Join(r.work, "notes.txt")
	turn := r.Submit("write: " + path)
	ask, _ := r.Until("the write's approval", agenttest.IsApproval)
	fc := r.State.Item(ask.ItemID)
	if fc == nil || fc.Kind != model.KindFileChange || fc.Status != model.StatusInProgress {
		t.Fatalf("approval is about %+v, want an open fileChange", fc)
	}
	if ch := fc.FileChanges(); len(ch) != 1 || ch[0].Kind != "add" || !strings.Contains(ch[0].Diff, "+beta") {
		t.Errorf("proposed change %+v", ch)
	}
	if a := r.State.View().Approvals[0]; a.Summary != "Write "+path || !slices.Contains(a.Options, "approveForSession") {
		t.Errorf("approval %q %v", a.Summary, a.Options)
	}
	r.Respond(ask.ApprovalID, "approve")
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	agenttest.WantCompleted(t, done)
	add := r.One(model.KindFileChange, turn)
	if ch := add.FileChanges(); add.Status != model.StatusCompleted || len(ch) != 1 || ch[0].Path != path || ch[0].Kind != "add" ||
		ch[0].Diff != "@@ -0,0 +1,3 @@\n+alpha\n+beta\n+gamma\n" {
		t.Errorf("write = %s %+v", add.Status, ch)
	}

	turn = r.Submit("edit: " + path)
	ask, _ = r.Until("the edit's approval", agenttest.IsApproval)
	fc = r.State.Item(ask.ItemID)
	want := "@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n"
	if ch := fc.FileChanges(); fc.Kind != model.KindFileChange || len(ch) != 1 || ch[0].Diff != want {
		t.Errorf("proposed edit %+v", ch)
	}
	r.Respond(ask.ApprovalID, "approve")
	done, _ = r.Until("the turn's end", hosttest.TurnCompleted(turn))
	agenttest.WantCompleted(t, done)
	edit := r.One(model.KindFileChange, turn)
	if ch := edit.FileChanges(); edit.Status != model.StatusCompleted || len(ch) != 1 || ch[0].Kind != "update" || ch[0].Diff != want {
		t.Errorf("edit = %s %+v", edit.Status, ch)
	}
	if read := r.One(model.KindToolCall, turn); read.ToolName() != "Read" || read.Status != model.StatusCompleted || !strings.Contains(read.Output(), "beta") {
		t.Errorf("read = %s %s %q", read.ToolName(), read.Status, read.Output())
	}
	if b, _ := os.ReadFile(path); string(b) != "alpha\nBETA\ngamma\n" {
		t.Errorf("file holds %q", b)
	}
}

func TestModelErrorsFailTheTurnReadably(t *testing.T) {
	r := newRig(t, rigOptions{})
	done, _ := r.Turn("model error please")
	if done.Status != model.StatusFailed || done.TurnError == nil || done.TurnError.Code != "badRequest" || !strings.Contains(done.TurnError.Message, claudetest.BadRequestMessage) {
		t.Fatalf("turn ended %s %+v, want failed badRequest", done.Status, done.TurnError)
	}
	if e := r.One(model.KindError, done.TurnID); !strings.Contains(e.ErrorMessage(), claudetest.BadRequestMessage) {
		t.Errorf("error item %q", e.ErrorMessage())
	}
	if n := len(r.Items(model.KindAgentMessage, done.TurnID)); n != 0 {
		t.Errorf("%d answers in a failed turn", n)
	}
	// A server error is retried (once, here), then fails the turn.
	done, seen := r.Turn("http 500 please")
	if done.Status != model.StatusFailed || done.TurnError.Code != "serverError" || !strings.Contains(done.TurnError.Message, claudetest.ErrorMessage) {
		t.Errorf("turn ended %s %+v, want failed serverError", done.Status, done.TurnError)
	}
	if !slices.ContainsFunc(seen, func(ev *model.Event) bool { return ev.Method == model.MethodWarning }) {
		t.Error("no retry warning before the failure")
	}
	// The session goes on.
	next, _ := r.Turn("say: still here")
	agenttest.WantCompleted(t, next)
}

func TestRetryIsAWarning(t *testing.T) {
	r := newRig(t, rigOptions{home: claudetest.HomeOptions{MaxRetries: 2}})
	done, seen := r.Turn("retry please")
	agenttest.WantCompleted(t, done)
	var w *model.Warning
	for _, ev := range seen {
		if ev.Method == model.MethodWarning && ev.Warning.WillRetry {
			w = ev.Warning
		}
	}
	if w == nil || !w.Retryable || w.Attempt != 1 || w.MaxAttempts != 2 || w.Code != "serverError" || !strings.Contains(w.Message, "500") {
		t.Fatalf("retry warning = %+v", w)
	}
	if len(r.Items(model.KindError, done.TurnID)) != 0 {
		t.Error("a retried request left an error item in the history")
	}
	if r.One(model.KindAgentMessage, done.TurnID).Text() != claudetest.PlainAnswer {
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
	next, _ := r.Turn("say: after the interrupt")
	agenttest.WantCompleted(t, next)
	if pid := r.agent.ProcessID(r.SessionID); pid == 0 {
		t.Error("the interrupt cost the session its Claude Code")
	}
}

func TestInterruptWithdrawsAPendingApproval(t *testing.T) {
	r := newRig(t, rigOptions{})
	turn := r.Submit("run: touch never.txt")
	ask, _ := r.Until("the approval", agenttest.IsApproval)
	r.Interrupt(turn)
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	if done.Status != model.StatusStopped {
		t.Fatalf("turn ended %s %+v", done.Status, done.TurnError)
	}
	if len(r.State.View().Approvals) != 0 {
		t.Errorf("approval %s still pending", ask.ApprovalID)
	}
	if tool := r.State.Item(ask.ItemID); tool.IsOpen() || tool.Status == model.StatusCompleted {
		t.Errorf("the tool asked about ended %s", tool.Status)
	}
	if _, err := os.Stat(filepath.Join(r.work, "never.txt")); err == nil {
		t.Error("the command ran")
	}
	next, _ := r.Turn("say: after")
	agenttest.WantCompleted(t, next)
}

func TestClaudeKilledMidTurnThenNextTurnKeepsContext(t *testing.T) {
	r := newRig(t, rigOptions{})
	first, _ := r.Turn("say: the secret word is pumpkin")
	agenttest.WantCompleted(t, first)
	session := r.StateString("agentSessionId")
	turn := r.Submit("slow answer please")
	r.Until("the answer streaming", agenttest.IsTextDelta)
	pid := r.agent.ProcessID(r.SessionID)
	if pid == 0 {
		t.Fatal("no Claude Code runs for the session")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	if done.Status != model.StatusFailed || done.TurnError == nil || done.TurnError.Code != "agentExited" || !strings.Contains(done.TurnError.Message, "killed") {
		t.Fatalf("turn of a killed Claude Code ended %s %+v, want failed agentExited", done.Status, done.TurnError)
	}
	for _, it := range r.State.Items() {
		if it.IsOpen() {
			t.Errorf("item %s (%s) left open", it.ID, it.Kind)
		}
	}
	next, _ := r.Turn("say: what was the word")
	agenttest.WantCompleted(t, next)
	agenttest.ContainsAll(t, "the next turn's request", r.lastPrompts(), "the secret word is pumpkin", "what was the word")
	if got := r.StateString("agentSessionId"); got != session {
		t.Errorf("session after the kill %q, want %q", got, session)
	}
	if r.agent.ProcessID(r.SessionID) == pid {
		t.Error("the dead Claude Code is still the session's")
	}
}

func TestHostRestartResumesTheSession(t *testing.T) {
	r := newRig(t, rigOptions{})
	first, _ := r.Turn("say: remember the colour teal")
	agenttest.WantCompleted(t, first)
	session := r.StateString("agentSessionId")
	if err := r.Host.Close(); err != nil {
		t.Fatal(err)
	}
	r.StartHost()
	r.Subscribe()
	next, _ := r.Turn("say: which colour")
	agenttest.WantCompleted(t, next)
	if got := r.StateString("agentSessionId"); got != session {
		t.Errorf("session after restart %q, want %q", got, session)
	}
	agenttest.ContainsAll(t, "the request after a restart", r.lastPrompts(), "remember the colour teal", "which colour")
	reqs := r.fake.Requests()
	if last := reqs[len(reqs)-1]; last.SessionID != session || !slices.Contains(last.AssistantTexts(), "remember the colour teal") {
		t.Errorf("the resumed request is session %q with answers %q", last.SessionID, last.AssistantTexts())
	}
}

func TestTwoClientsSeeTheSameTranscript(t *testing.T) {
	r := newRig(t, rigOptions{})
	other, st2 := r.AnotherClient()
	turn := r.Submit("run: echo shared > shared.txt")
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

func TestHostCloseLeavesNoClaudeProcess(t *testing.T) {
	r := newRig(t, rigOptions{})
	turn := r.Submit("slow answer please")
	r.Until("the answer streaming", agenttest.IsTextDelta)
	pid := r.agent.ProcessID(r.SessionID)
	if pid == 0 {
		t.Fatal("no Claude Code runs")
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
		t.Fatalf("Claude Code %d still runs after the host closed", pid)
	}
}

func TestCompactIsAContextCompaction(t *testing.T) {
	r := newRig(t, rigOptions{})
	first, _ := r.Turn("say: something to summarise")
	agenttest.WantCompleted(t, first)
	done, _ := r.Turn("/compact")
	agenttest.WantCompleted(t, done)
	if c := r.One(model.KindContextCompaction, done.TurnID); c.Status != model.StatusCompleted {
		t.Errorf("compaction ended %s", c.Status)
	}
	next, _ := r.Turn("say: after the compaction")
	agenttest.WantCompleted(t, next)
}

// /cost is a command Claude Code runs itself; its aligned lines reach the
// transcript as lines (fenced), not joined into one paragraph.
func TestCostOutputKeepsItsLines(t *testing.T) {
	r := newRig(t, rigOptions{})
	first, _ := r.Turn("say: something that costs")
	agenttest.WantCompleted(t, first)
	done, _ := r.Turn("/cost")
	agenttest.WantCompleted(t, done)
	msg := r.One(model.KindAgentMessage, done.TurnID)
	text := msg.Text()
	if !strings.HasPrefix(text, "```") || strings.Count(text, "\n") < 3 {
		t.Fatalf("/cost output is not kept line by line:\n%s", text)
	}
}
