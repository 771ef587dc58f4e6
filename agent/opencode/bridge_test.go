package opencode_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/agent/opencode/opencodetest"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// The tests below drive the real OpenCode server through a real host and
// assert the transcript the client folds. TestOpenCodeBridge shares one
// host and one `opencode serve` among its subtests (each in a session of
// its own): the server takes seconds to start.

func TestOpenCodeBridge(t *testing.T) {
	base := newRig(t, rigOptions{})
	base.work = opencodetest.GitWorkdir(t) // so OpenCode reports patches
	base.startHost()

	t.Run("PlainAnswerWithReasoning", func(t *testing.T) {
		r := base.fork(t)
		done, seen := r.turn("hello there")
		wantCompleted(t, done)
		msg := r.one(model.KindAgentMessage, done.TurnID)
		if msg.Text() != opencodetest.PlainAnswer || msg.Status != model.StatusCompleted {
			t.Errorf("answer = %q (%s), want %q completed", msg.Text(), msg.Status, opencodetest.PlainAnswer)
		}
		rs := r.one(model.KindReasoning, done.TurnID)
		if s := rs.Summary(); len(s) != 1 || s[0] != opencodetest.PlainReasoning || rs.Status != model.StatusCompleted {
			t.Errorf("reasoning = %q (%s), want [%q]", s, rs.Status, opencodetest.PlainReasoning)
		}
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
		if !strings.HasPrefix(r.stateString("agentSessionId"), "ses_") || r.stateString("agent") != "opencode" {
			t.Errorf("session state lacks the OpenCode session or agent: %s", r.st.Encode())
		}
		if r.stateString("cwd") != r.work || r.stateString("model") != "fake/fake-model" {
			t.Errorf("cwd %q model %q", r.stateString("cwd"), r.stateString("model"))
		}
		// The fake reports 10 prompt tokens (2 cached) and 5 completion
		// tokens (1 reasoning); OpenCode counts the reasoning apart.
		usage := string(r.st.Value("usage"))
		for _, k := range []string{`"inputTokens":10`, `"cachedInputTokens":2`, `"outputTokens":4`, `"reasoningOutputTokens":1`,
			`"totalTokens":15`, `"contextTokens":15`, `"contextWindow":100000`} {
			if !strings.Contains(usage, k) {
				t.Errorf("usage state = %s, lacks %s", usage, k)
			}
		}
		if string(r.st.Value("costUsd")) != "0" {
			t.Errorf("cost state %s, want 0 (the fake model is free)", r.st.Value("costUsd"))
		}
		if r.stateString("title") != opencodetest.Title && r.stateString("title") != "hello there" {
			t.Errorf("title %q", r.stateString("title"))
		}
		r.noneOpen()
	})

	t.Run("CommandApprovedShowsOutputAndExitCode", func(t *testing.T) {
		r := base.fork(t)
		turn := r.submit("run: echo approved-output")
		ask, _ := r.until("the approval", isApproval)
		tool := r.st.Item(ask.ItemID)
		if tool == nil || tool.Kind != model.KindToolCall || tool.Status != model.StatusWaitingUser {
			t.Fatalf("approval is about %+v, want a waiting toolCall", tool)
		}
		a := r.st.View().Approvals[0]
		if !strings.Contains(a.Summary, "echo approved-output") || !slices.Equal(a.Options, []string{"approve", "approveForSession", "deny"}) {
			t.Errorf("approval %q options %v", a.Summary, a.Options)
		}
		r.respond(ask.ApprovalID, "approve")
		done, _ := r.until("the turn's end", hosttest.TurnCompleted(turn))
		wantCompleted(t, done)
		tool = r.one(model.KindToolCall, turn)
		code, ok := tool.ExitCode()
		if tool.Status != model.StatusCompleted || !ok || code != 0 || !strings.Contains(tool.Output(), "approved-output") {
			t.Errorf("tool = %s exit %d/%v output %q", tool.Status, code, ok, tool.Output())
		}
		if !strings.Contains(tool.InputText(), "echo approved-output") || tool.ToolName() != "bash" {
			t.Errorf("tool input %q name %q", tool.InputText(), tool.ToolName())
		}
		if ans := r.one(model.KindAgentMessage, turn).Text(); !strings.HasPrefix(ans, opencodetest.FollowupPrefix) || !strings.Contains(ans, "approved-output") {
			t.Errorf("answer after the command %q", ans)
		}
		if len(r.st.View().Approvals) != 0 {
			t.Errorf("approvals still pending: %+v", r.st.View().Approvals)
		}
		r.noneOpen()
	})

	t.Run("ApproveForSessionAllowsTheLikeOfIt", func(t *testing.T) {
		r := base.fork(t)
		turn := r.submit("run: echo first-one")
		ask, _ := r.until("the approval", isApproval)
		r.respond(ask.ApprovalID, "approveForSession")
		done, _ := r.until("the turn's end", hosttest.TurnCompleted(turn))
		wantCompleted(t, done)
		// "echo *" now runs without asking in this session, and only in it:
		// OpenCode's own "always" would allow it in every session.
		done, seen := r.turn("run: echo second-one")
		wantCompleted(t, done)
		for _, ev := range seen {
			if isApproval(ev) {
				t.Errorf("asked again: %+v", ev)
			}
		}
		if tool := r.one(model.KindToolCall, done.TurnID); tool.Status != model.StatusCompleted || !strings.Contains(tool.Output(), "second-one") {
			t.Errorf("second command %s %q", tool.Status, tool.Output())
		}
		other := base.fork(t)
		turn = other.submit("run: echo in-another-session")
		ask, _ = other.until("the other session's approval", isApproval)
		other.respond(ask.ApprovalID, "approve")
		done, _ = other.until("the other turn's end", hosttest.TurnCompleted(turn))
		wantCompleted(t, done)
	})

	t.Run("CommandDeniedDoesNotRun", func(t *testing.T) {
		r := base.fork(t)
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
		r.noneOpen()
	})

	t.Run("DenyReasonReachesTheModel", func(t *testing.T) {
		// The reason goes with the reject as its message: OpenCode tells the
		// model the user's feedback in the refused tool's result and goes
		// on with the turn (issue 25).
		const reason = "Do not touch files; list them instead."
		r := base.fork(t)
		turn := r.submit("run: touch reasoned.txt")
		ask, _ := r.until("the approval", isApproval)
		before := len(r.fake.TurnRequests())
		r.c.MustCall(t, "approval/respond", map[string]any{"sessionId": r.sid, "approvalId": ask.ApprovalID, "decision": "deny", "reason": reason}, nil)
		done, _ := r.until("the turn's end", hosttest.TurnCompleted(turn))
		wantCompleted(t, done)
		reqs := r.fake.TurnRequests()[before:]
		if len(reqs) == 0 {
			t.Fatal("no model request after the deny")
		}
		told := false
		for _, m := range reqs[0].Messages {
			if m.Role == "tool" && strings.Contains(m.Text, reason) {
				told = true
			}
		}
		if !told {
			t.Errorf("the next request does not carry the reason in a tool result: %+v", reqs[0].Messages)
		}
		if _, err := os.Stat(filepath.Join(r.work, "reasoned.txt")); err == nil {
			t.Error("the denied command ran")
		}
		r.noneOpen()
	})

	t.Run("EditsAreFileChangesWithDiffs", func(t *testing.T) {
		r := base.fork(t)
		path := filepath.Join(r.work, "notes.txt")
		turn := r.submit("write: " + path)
		ask, _ := r.until("the write's approval", isApproval)
		fc := r.st.Item(ask.ItemID)
		if fc == nil || fc.Kind != model.KindFileChange {
			t.Fatalf("approval is about %+v, want the fileChange", fc)
		}
		if ch := fc.FileChanges(); len(ch) != 1 || ch[0].Path != path || !strings.Contains(ch[0].Diff, "+"+opencodetest.WriteLine) {
			t.Errorf("the change asked about = %+v, want its diff", ch)
		}
		if a := r.st.View().Approvals[0]; !strings.Contains(a.Summary, "notes.txt") {
			t.Errorf("approval summary %q", a.Summary)
		}
		r.respond(ask.ApprovalID, "approve")
		done, _ := r.until("the write's end", hosttest.TurnCompleted(turn))
		wantCompleted(t, done)
		add := r.one(model.KindFileChange, turn)
		ch := add.FileChanges()
		if add.Status != model.StatusCompleted || len(ch) != 1 || ch[0].Kind != "add" || !strings.HasPrefix(ch[0].Diff, "@@ -0,0 +1,2 @@\n+"+opencodetest.WriteLine) {
			t.Errorf("write = %s %+v, want notes.txt added", add.Status, ch)
		}
		if b, err := os.ReadFile(path); err != nil || string(b) != opencodetest.WriteContent {
			t.Errorf("the write did not happen: %q %v", b, err)
		}

		turn = r.submit("edit: " + path)
		ask, _ = r.until("the edit's approval", isApproval)
		r.respond(ask.ApprovalID, "approve")
		done, _ = r.until("the edit's end", hosttest.TurnCompleted(turn))
		wantCompleted(t, done)
		up := r.one(model.KindFileChange, turn).FileChanges()
		if len(up) != 1 || up[0].Kind != "update" || !strings.HasPrefix(up[0].Diff, "@@ ") ||
			!strings.Contains(up[0].Diff, "-"+opencodetest.WriteLine) || !strings.Contains(up[0].Diff, "+"+opencodetest.EditedLine) {
			t.Errorf("edit = %+v, want a unified diff of the line", up)
		}
		if len(r.items(model.KindToolCall, "")) != 0 {
			t.Errorf("edits also shown as tool calls")
		}
		r.noneOpen()
	})

	t.Run("CommandChangesAreAFileChange", func(t *testing.T) {
		r := base.fork(t)
		turn := r.submit("run: printf 'made by a command\\n' > made.txt")
		ask, _ := r.until("the approval", isApproval)
		r.respond(ask.ApprovalID, "approve")
		done, _ := r.until("the turn's end", hosttest.TurnCompleted(turn))
		wantCompleted(t, done)
		if tool := r.one(model.KindToolCall, turn); tool.Status != model.StatusCompleted {
			t.Errorf("command %s %q", tool.Status, tool.ErrorMessage())
		}
		fc := r.one(model.KindFileChange, turn)
		ch := fc.FileChanges()
		if fc.Status != model.StatusCompleted || len(ch) != 1 || ch[0].Path != filepath.Join(r.work, "made.txt") || ch[0].Kind != "add" ||
			!strings.Contains(ch[0].Diff, "+made by a command") {
			t.Errorf("the command's change = %s %+v", fc.Status, ch)
		}
	})

	t.Run("ModelErrorFailsTheTurnReadably", func(t *testing.T) {
		r := base.fork(t)
		done, _ := r.turn("model error please")
		if done.Status != model.StatusFailed || done.TurnError == nil || done.TurnError.Code != "modelError" || !strings.Contains(done.TurnError.Message, opencodetest.ErrorMessage) {
			t.Fatalf("turn ended %s %+v, want failed modelError with the model's message", done.Status, done.TurnError)
		}
		if e := r.one(model.KindError, done.TurnID); !strings.Contains(e.ErrorMessage(), opencodetest.ErrorMessage) {
			t.Errorf("error item %q", e.ErrorMessage())
		}
		next, _ := r.turn("say: still here")
		wantCompleted(t, next)
		if r.one(model.KindAgentMessage, next.TurnID).Text() != "still here" {
			t.Error("no answer after the error")
		}
	})

	t.Run("RetryIsAWarning", func(t *testing.T) {
		r := base.fork(t)
		done, seen := r.turn("retry please")
		wantCompleted(t, done)
		var w *model.Warning
		for _, ev := range seen {
			if ev.Method == model.MethodWarning && ev.Warning.WillRetry {
				w = ev.Warning
			}
		}
		if w == nil || !w.Retryable || w.Attempt != 1 || !strings.Contains(w.Message, opencodetest.ErrorMessage) {
			t.Fatalf("retry warning = %+v", w)
		}
		if len(r.items(model.KindError, done.TurnID)) != 0 {
			t.Error("a retried request left an error item")
		}
		if r.one(model.KindAgentMessage, done.TurnID).Text() != opencodetest.PlainAnswer {
			t.Error("no answer after the retry")
		}
	})

	t.Run("DisconnectedAttemptIsStoppedNotDuplicated", func(t *testing.T) {
		r := base.fork(t)
		done, seen := r.turn("disconnect please")
		wantCompleted(t, done)
		retried := false
		for _, ev := range seen {
			retried = retried || (ev.Method == model.MethodWarning && ev.Warning.WillRetry)
		}
		if !retried {
			t.Error("no retry warning for the dropped connection")
		}
		var completed, stopped int
		for _, it := range r.items(model.KindAgentMessage, done.TurnID) {
			switch it.Status {
			case model.StatusCompleted:
				completed++
				if it.Text() != opencodetest.PlainAnswer {
					t.Errorf("completed answer %q", it.Text())
				}
			case model.StatusStopped:
				stopped++
				if !strings.HasPrefix(opencodetest.PlainAnswer, it.Text()) {
					t.Errorf("stopped answer %q is not the dropped attempt's", it.Text())
				}
			default:
				t.Errorf("answer item ended %s", it.Status)
			}
		}
		// Whether the dropped attempt's text showed before the connection
		// broke depends on timing; it never reads as a second answer.
		if completed != 1 || stopped > 1 {
			t.Errorf("%d completed and %d stopped answers, want one complete answer (and the dropped attempt stopped)", completed, stopped)
		}
	})

	t.Run("InterruptKeepsStreamedText", func(t *testing.T) {
		r := base.fork(t)
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
		if got := r.one(model.KindAgentMessage, next.TurnID).Text(); got != "after the interrupt" {
			t.Errorf("answer after the interrupt %q", got)
		}
	})

	t.Run("InterruptWhileAskingRejectsThePermission", func(t *testing.T) {
		r := base.fork(t)
		turn := r.submit("run: touch interrupted.txt")
		r.until("the approval", isApproval)
		r.c.MustCall(t, "turn/interrupt", map[string]any{"sessionId": r.sid, "turnId": turn}, nil)
		done, _ := r.until("the turn's end", hosttest.TurnCompleted(turn))
		if done.Status != model.StatusStopped {
			t.Fatalf("interrupted turn ended %s %+v", done.Status, done.TurnError)
		}
		// OpenCode keeps a permission nobody answered; the bridge rejects
		// it, so the next turn is not stuck behind it.
		next, _ := r.turn("say: next")
		wantCompleted(t, next)
		if _, err := os.Stat(filepath.Join(r.work, "interrupted.txt")); err == nil {
			t.Error("the command of the interrupted turn ran")
		}
		r.noneOpen()
	})

	t.Run("TwoSessionsRunAtOnce", func(t *testing.T) {
		a, b := base.fork(t), base.fork(t)
		ta := a.submit("say: answer for a")
		tb := b.submit("say: answer for b")
		da, _ := a.until("a's end", hosttest.TurnCompleted(ta))
		db, _ := b.until("b's end", hosttest.TurnCompleted(tb))
		wantCompleted(t, da)
		wantCompleted(t, db)
		if x, y := a.one(model.KindAgentMessage, ta).Text(), b.one(model.KindAgentMessage, tb).Text(); x != "answer for a" || y != "answer for b" {
			t.Errorf("answers %q and %q crossed", x, y)
		}
		if a.stateString("agentSessionId") == b.stateString("agentSessionId") {
			t.Error("two Lookout sessions share an OpenCode session")
		}
	})

	t.Run("TwoClientsSeeTheSameTranscript", func(t *testing.T) {
		r := base.fork(t)
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
	})
}
