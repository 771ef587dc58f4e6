package opencode_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/opencode/opencodetest"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// The tests below drive the real OpenCode server through a real host and
// assert the transcript the client folds. TestOpenCodeBridge shares one
// host and one `opencode serve` among its subtests (each in a session of
// its own): the server takes seconds to start.

func TestOpenCodeBridge(t *testing.T) {
	base := newRig(t, rigOptions{git: true}) // so OpenCode reports patches

	t.Run("PlainAnswerWithReasoning", func(t *testing.T) {
		r := base.fork(t)
		done, seen := r.Turn("hello there")
		agenttest.WantCompleted(t, done)
		msg := r.One(model.KindAgentMessage, done.TurnID)
		if msg.Text() != opencodetest.PlainAnswer || msg.Status != model.StatusCompleted {
			t.Errorf("answer = %q (%s), want %q completed", msg.Text(), msg.Status, opencodetest.PlainAnswer)
		}
		rs := r.One(model.KindReasoning, done.TurnID)
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
		if u := r.One(model.KindUserMessage, done.TurnID); u.Text() != "hello there" {
			t.Errorf("user message %q", u.Text())
		}
		if !strings.HasPrefix(r.StateString("agentSessionId"), "ses_") || r.StateString("agent") != "opencode" {
			t.Errorf("session state lacks the OpenCode session or agent: %s", r.State.Encode())
		}
		if r.StateString("cwd") != r.work || r.StateString("model") != "fake/fake-model" {
			t.Errorf("cwd %q model %q", r.StateString("cwd"), r.StateString("model"))
		}
		// The fake reports 10 prompt tokens (2 cached) and 5 completion
		// tokens (1 reasoning); OpenCode counts the reasoning apart.
		usage := string(r.State.Value("usage"))
		for _, k := range []string{`"inputTokens":10`, `"cachedInputTokens":2`, `"outputTokens":4`, `"reasoningOutputTokens":1`,
			`"totalTokens":15`, `"contextTokens":15`, `"contextWindow":100000`} {
			if !strings.Contains(usage, k) {
				t.Errorf("usage state = %s, lacks %s", usage, k)
			}
		}
		if string(r.State.Value("costUsd")) != "0" {
			t.Errorf("cost state %s, want 0 (the fake model is free)", r.State.Value("costUsd"))
		}
		if r.StateString("title") != opencodetest.Title && r.StateString("title") != "hello there" {
			t.Errorf("title %q", r.StateString("title"))
		}
		r.NoneOpen()
	})

	t.Run("CommandApprovedShowsOutputAndExitCode", func(t *testing.T) {
		r := base.fork(t)
		turn := r.Submit("run: echo approved-output")
		ask, _ := r.Until("the approval", agenttest.IsApproval)
		tool := r.State.Item(ask.ItemID)
		if tool == nil || tool.Kind != model.KindToolCall || tool.Status != model.StatusWaitingUser {
			t.Fatalf("approval is about %+v, want a waiting toolCall", tool)
		}
		a := r.State.View().Approvals[0]
		if !strings.Contains(a.Summary, "echo approved-output") || !slices.Equal(a.Options, []string{"approve", "approveForSession", "deny"}) {
			t.Errorf("approval %q options %v", a.Summary, a.Options)
		}
		r.Respond(ask.ApprovalID, "approve")
		done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
		agenttest.WantCompleted(t, done)
		tool = r.One(model.KindToolCall, turn)
		code, ok := tool.ExitCode()
		if tool.Status != model.StatusCompleted || !ok || code != 0 || !strings.Contains(tool.Output(), "approved-output") {
			t.Errorf("tool = %s exit %d/%v output %q", tool.Status, code, ok, tool.Output())
		}
		if !strings.Contains(tool.InputText(), "echo approved-output") || tool.ToolName() != "bash" {
			t.Errorf("tool input %q name %q", tool.InputText(), tool.ToolName())
		}
		if ans := r.One(model.KindAgentMessage, turn).Text(); !strings.HasPrefix(ans, opencodetest.FollowupPrefix) || !strings.Contains(ans, "approved-output") {
			t.Errorf("answer after the command %q", ans)
		}
		if len(r.State.View().Approvals) != 0 {
			t.Errorf("approvals still pending: %+v", r.State.View().Approvals)
		}
		r.NoneOpen()
	})

	t.Run("ApproveForSessionAllowsTheLikeOfIt", func(t *testing.T) {
		r := base.fork(t)
		turn := r.Submit("run: echo first-one")
		ask, _ := r.Until("the approval", agenttest.IsApproval)
		r.Respond(ask.ApprovalID, "approveForSession")
		done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
		agenttest.WantCompleted(t, done)
		// "echo *" now runs without asking in this session, and only in it:
		// OpenCode's own "always" would allow it in every session.
		done, seen := r.Turn("run: echo second-one")
		agenttest.WantCompleted(t, done)
		for _, ev := range seen {
			if agenttest.IsApproval(ev) {
				t.Errorf("asked again: %+v", ev)
			}
		}
		if tool := r.One(model.KindToolCall, done.TurnID); tool.Status != model.StatusCompleted || !strings.Contains(tool.Output(), "second-one") {
			t.Errorf("second command %s %q", tool.Status, tool.Output())
		}
		other := base.fork(t)
		turn = other.Submit("run: echo in-another-session")
		ask, _ = other.Until("the other session's approval", agenttest.IsApproval)
		other.Respond(ask.ApprovalID, "approve")
		done, _ = other.Until("the other turn's end", hosttest.TurnCompleted(turn))
		agenttest.WantCompleted(t, done)
	})

	t.Run("CommandDeniedDoesNotRun", func(t *testing.T) {
		r := base.fork(t)
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
		r.NoneOpen()
	})

	t.Run("DenyReasonReachesTheModel", func(t *testing.T) {
		// The reason goes with the reject as its message: OpenCode tells the
		// model the user's feedback in the refused tool's result and goes
		// on with the turn (issue 25).
		const reason = "Do not touch files; list them instead."
		r := base.fork(t)
		turn := r.Submit("run: touch reasoned.txt")
		ask, _ := r.Until("the approval", agenttest.IsApproval)
		before := len(r.fake.TurnRequests())
		r.Client.MustCall(t, "approval/respond", map[string]any{"sessionId": r.SessionID, "approvalId": ask.ApprovalID, "decision": "deny", "reason": reason}, nil)
		done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
		agenttest.WantCompleted(t, done)
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
		r.NoneOpen()
	})

	t.Run("EditsAreFileChangesWithDiffs", func(t *testing.T) {
		r := base.fork(t)
		path := filepath.Join(r.work, "notes.txt")
		turn := r.Submit("write: " + path)
		ask, _ := r.Until("the write's approval", agenttest.IsApproval)
		fc := r.State.Item(ask.ItemID)
		if fc == nil || fc.Kind != model.KindFileChange {
			t.Fatalf("approval is about %+v, want the fileChange", fc)
		}
		if ch := fc.FileChanges(); len(ch) != 1 || ch[0].Path != path || !strings.Contains(ch[0].Diff, "+"+opencodetest.WriteLine) {
			t.Errorf("the change asked about = %+v, want its diff", ch)
		}
		if a := r.State.View().Approvals[0]; !strings.Contains(a.Summary, "notes.txt") {
			t.Errorf("approval summary %q", a.Summary)
		}
		r.Respond(ask.ApprovalID, "approve")
		done, _ := r.Until("the write's end", hosttest.TurnCompleted(turn))
		agenttest.WantCompleted(t, done)
		add := r.One(model.KindFileChange, turn)
		ch := add.FileChanges()
		if add.Status != model.StatusCompleted || len(ch) != 1 || ch[0].Kind != "add" || !strings.HasPrefix(ch[0].Diff, "@@ -0,0 +1,2 @@\n+"+opencodetest.WriteLine) {
			t.Errorf("write = %s %+v, want notes.txt added", add.Status, ch)
		}
		if b, err := os.ReadFile(path); err != nil || string(b) != opencodetest.WriteContent {
			t.Errorf("the write did not happen: %q %v", b, err)
		}

		turn = r.Submit("edit: " + path)
		ask, _ = r.Until("the edit's approval", agenttest.IsApproval)
		r.Respond(ask.ApprovalID, "approve")
		done, _ = r.Until("the edit's end", hosttest.TurnCompleted(turn))
		agenttest.WantCompleted(t, done)
		up := r.One(model.KindFileChange, turn).FileChanges()
		if len(up) != 1 || up[0].Kind != "update" || !strings.HasPrefix(up[0].Diff, "@@ ") ||
			!strings.Contains(up[0].Diff, "-"+opencodetest.WriteLine) || !strings.Contains(up[0].Diff, "+"+opencodetest.EditedLine) {
			t.Errorf("edit = %+v, want a unified diff of the line", up)
		}
		if len(r.Items(model.KindToolCall, "")) != 0 {
			t.Errorf("edits also shown as tool calls")
		}
		r.NoneOpen()
	})

	t.Run("CommandChangesAreAFileChange", func(t *testing.T) {
		r := base.fork(t)
		turn := r.Submit("run: printf 'made by a command\\n' > made.txt")
		ask, _ := r.Until("the approval", agenttest.IsApproval)
		r.Respond(ask.ApprovalID, "approve")
		done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
		agenttest.WantCompleted(t, done)
		if tool := r.One(model.KindToolCall, turn); tool.Status != model.StatusCompleted {
			t.Errorf("command %s %q", tool.Status, tool.ErrorMessage())
		}
		fc := r.One(model.KindFileChange, turn)
		ch := fc.FileChanges()
		if fc.Status != model.StatusCompleted || len(ch) != 1 || ch[0].Path != filepath.Join(r.work, "made.txt") || ch[0].Kind != "add" ||
			!strings.Contains(ch[0].Diff, "+made by a command") {
			t.Errorf("the command's change = %s %+v", fc.Status, ch)
		}
	})

	t.Run("ModelErrorFailsTheTurnReadably", func(t *testing.T) {
		r := base.fork(t)
		done, _ := r.Turn("model error please")
		if done.Status != model.StatusFailed || done.TurnError == nil || done.TurnError.Code != "modelError" || !strings.Contains(done.TurnError.Message, opencodetest.ErrorMessage) {
			t.Fatalf("turn ended %s %+v, want failed modelError with the model's message", done.Status, done.TurnError)
		}
		if e := r.One(model.KindError, done.TurnID); !strings.Contains(e.ErrorMessage(), opencodetest.ErrorMessage) {
			t.Errorf("error item %q", e.ErrorMessage())
		}
		next, _ := r.Turn("say: still here")
		agenttest.WantCompleted(t, next)
		if r.One(model.KindAgentMessage, next.TurnID).Text() != "still here" {
			t.Error("no answer after the error")
		}
	})

	t.Run("RetryIsAWarning", func(t *testing.T) {
		r := base.fork(t)
		done, seen := r.Turn("retry please")
		agenttest.WantCompleted(t, done)
		var w *model.Warning
		for _, ev := range seen {
			if ev.Method == model.MethodWarning && ev.Warning.WillRetry {
				w = ev.Warning
			}
		}
		if w == nil || !w.Retryable || w.Attempt != 1 || !strings.Contains(w.Message, opencodetest.ErrorMessage) {
			t.Fatalf("retry warning = %+v", w)
		}
		if len(r.Items(model.KindError, done.TurnID)) != 0 {
			t.Error("a retried request left an error item")
		}
		if r.One(model.KindAgentMessage, done.TurnID).Text() != opencodetest.PlainAnswer {
			t.Error("no answer after the retry")
		}
	})

	t.Run("DisconnectedAttemptIsStoppedNotDuplicated", func(t *testing.T) {
		r := base.fork(t)
		done, seen := r.Turn("disconnect please")
		agenttest.WantCompleted(t, done)
		retried := false
		for _, ev := range seen {
			retried = retried || (ev.Method == model.MethodWarning && ev.Warning.WillRetry)
		}
		if !retried {
			t.Error("no retry warning for the dropped connection")
		}
		var completed, stopped int
		for _, it := range r.Items(model.KindAgentMessage, done.TurnID) {
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
		turn := r.Submit("slow answer please")
		var msgID string
		r.Until("some streamed text", func(ev *model.Event) bool {
			if ev.Method == model.MethodItemStarted && ev.Item.Kind == model.KindAgentMessage {
				msgID = ev.Item.ID
			}
			it := r.State.Item(msgID)
			return it != nil && strings.Count(it.Text(), "slow") >= 3
		})
		r.Client.MustCall(t, "turn/interrupt", map[string]any{"sessionId": r.SessionID, "turnId": turn}, nil)
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
		if got := r.One(model.KindAgentMessage, next.TurnID).Text(); got != "after the interrupt" {
			t.Errorf("answer after the interrupt %q", got)
		}
	})

	t.Run("InterruptWhileAskingRejectsThePermission", func(t *testing.T) {
		r := base.fork(t)
		turn := r.Submit("run: touch interrupted.txt")
		r.Until("the approval", agenttest.IsApproval)
		r.Client.MustCall(t, "turn/interrupt", map[string]any{"sessionId": r.SessionID, "turnId": turn}, nil)
		done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
		if done.Status != model.StatusStopped {
			t.Fatalf("interrupted turn ended %s %+v", done.Status, done.TurnError)
		}
		// OpenCode keeps a permission nobody answered; the bridge rejects
		// it, so the next turn is not stuck behind it.
		next, _ := r.Turn("say: next")
		agenttest.WantCompleted(t, next)
		if _, err := os.Stat(filepath.Join(r.work, "interrupted.txt")); err == nil {
			t.Error("the command of the interrupted turn ran")
		}
		r.NoneOpen()
	})

	t.Run("TwoSessionsRunAtOnce", func(t *testing.T) {
		a, b := base.fork(t), base.fork(t)
		ta := a.Submit("say: answer for a")
		tb := b.Submit("say: answer for b")
		da, _ := a.Until("a's end", hosttest.TurnCompleted(ta))
		db, _ := b.Until("b's end", hosttest.TurnCompleted(tb))
		agenttest.WantCompleted(t, da)
		agenttest.WantCompleted(t, db)
		if x, y := a.One(model.KindAgentMessage, ta).Text(), b.One(model.KindAgentMessage, tb).Text(); x != "answer for a" || y != "answer for b" {
			t.Errorf("answers %q and %q crossed", x, y)
		}
		if a.StateString("agentSessionId") == b.StateString("agentSessionId") {
			t.Error("two Lookout sessions share an OpenCode session")
		}
	})

	t.Run("TwoClientsSeeTheSameTranscript", func(t *testing.T) {
		r := base.fork(t)
		other := hosttest.Dial(t, r.Host)
		sub, err := other.Subscribe(r.SessionID, "", "", 1000)
		if err != nil {
			t.Fatal(err)
		}
		st2 := model.NewState(r.SessionID)
		if _, err := st2.LoadSnapshot(r.SessionID, sub.Epoch, *sub.Snapshot); err != nil {
			t.Fatal(err)
		}
		turn := r.Submit("run: echo shared")
		ask, _ := r.Until("the approval", agenttest.IsApproval)
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
	})
}
