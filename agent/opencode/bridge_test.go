package opencode_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/opencode/opencodetest"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// The tests below drive the real OpenCode server through a real host and
// assert the transcript the client folds. TestOpenCodeBridge shares one
// host and one `opencode serve` among its subtests (each in a session of
// its own), the contract suite's first (contract_test.go): the server
// takes seconds to start.

func TestOpenCodeBridge(t *testing.T) {
	base := newRig(t, rigOptions{git: true}) // so OpenCode reports patches
	agenttest.RunContract(t, contract(base))
	t.Run("AttachedServerRestarted", testAttachedServerRestarted)

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

	t.Run("CompactIsSummarize", func(t *testing.T) {
		// The agent command compact is OpenCode's summarize: the fake gets
		// OpenCode's summary request, never a prompt "/compact", and the
		// transcript shows the compaction. The session's commands are
		// /compact and GET /command's.
		r := base.fork(t)
		first, _ := r.Turn("say: something to summarise")
		agenttest.WantCompleted(t, first)
		// The list is read beside the first turn, not before it.
		listed := func(*model.Event) bool {
			var offered []host.AgentCommand
			return json.Unmarshal(r.State.Value(host.StateCommands), &offered) == nil && len(offered) >= 2 &&
				offered[0].Name == "compact" && slices.ContainsFunc(offered, func(c host.AgentCommand) bool { return c.Name == "review" })
		}
		if !listed(nil) {
			r.Until("OpenCode's command list", listed)
		}
		before := len(r.fake.TurnRequests())
		done, _ := r.Command("/compact", "compact")
		agenttest.WantCompleted(t, done)
		if c := r.One(model.KindContextCompaction, done.TurnID); c.Status != model.StatusCompleted {
			t.Errorf("the compaction ended %s", c.Status)
		}
		reqs := r.fake.TurnRequests()[before:]
		if len(reqs) == 0 || !reqs[0].IsCompaction() {
			t.Fatalf("the model's first request after /compact is not OpenCode's summary request (%d requests)", len(reqs))
		}
		for _, q := range reqs {
			if slices.Contains(q.Prompts(), "/compact") {
				t.Fatal("/compact reached the model as a prompt")
			}
		}
		next, _ := r.Turn("say: after the compaction")
		agenttest.WantCompleted(t, next)
	})

	t.Run("QuestionAnsweredFromAnotherClient", func(t *testing.T) {
		// OpenCode's question tool asks through question.asked; a second
		// client answers, OpenCode gets the reply and the model the answer
		// in the tool's result.
		r := base.fork(t)
		other, otherState := r.AnotherClient()
		turn := r.Submit("ask user which database to use")
		ev, _ := r.Until("the question", agenttest.IsQuestion)
		q := r.State.Item(ev.Item.ID).QuestionOf()
		if q.Text != opencodetest.AskQuestion || q.Header != opencodetest.AskHeader || q.Multiple || !q.FreeText ||
			len(q.Options) != 2 || q.Options[1].Label != opencodetest.AskOptions[1] {
			t.Fatalf("question = %+v", q)
		}
		before := len(r.fake.TurnRequests())
		other.MustCall(t, "question/respond", map[string]any{"sessionId": r.SessionID, "questionId": ev.Item.ID,
			"answer": map[string]any{"selected": []string{opencodetest.AskOptions[1]}}}, nil)
		done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
		agenttest.WantCompleted(t, done)
		if got := r.State.Item(ev.Item.ID); got.Status != model.StatusAnswered {
			t.Fatalf("the question is %s", got.Status)
		}
		if _, _, err := other.WaitEvent(otherState, hosttest.TurnCompleted(turn)); err != nil {
			t.Fatal(err)
		}
		if got := otherState.Item(ev.Item.ID); got.Status != model.StatusAnswered {
			t.Fatalf("the answering client's question is %s", got.Status)
		}
		reqs := r.fake.TurnRequests()[before:]
		told := false
		for _, req := range reqs {
			for _, m := range req.Messages {
				told = told || (m.Role == "tool" && strings.Contains(m.Text, opencodetest.AskOptions[1]))
			}
		}
		if !told {
			t.Fatalf("no model request after the answer carries it in a tool result (%d requests)", len(reqs))
		}
		if tool := r.One(model.KindToolCall, turn); tool.Status != model.StatusCompleted {
			t.Errorf("the question tool call ended %s", tool.Status)
		}
		r.NoneOpen()
	})

	t.Run("InterruptWithdrawsTheQuestion", func(t *testing.T) {
		r := base.fork(t)
		turn := r.Submit("ask user which database to use")
		ev, _ := r.Until("the question", agenttest.IsQuestion)
		r.Interrupt(turn)
		done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
		if done.Status != model.StatusStopped {
			t.Fatalf("turn ended %s", done.Status)
		}
		if got := r.State.Item(ev.Item.ID); got.Status != model.StatusCancelled {
			t.Fatalf("question after the interrupt is %s", got.Status)
		}
		next, _ := r.Turn("say: still here")
		agenttest.WantCompleted(t, next)
	})

	t.Run("TodoWriteIsThePlan", func(t *testing.T) {
		// Two todowrite calls are one plan item revised, never a tool
		// call; the cancelled todo leaves the plan.
		r := base.fork(t)
		done, _ := r.Turn("plan the work")
		agenttest.WantCompleted(t, done)
		plan := r.One(model.KindPlan, done.TurnID)
		got := plan.PlanOf()
		if plan.Status != model.StatusCompleted || len(got.Steps) != 2 ||
			got.Steps[0] != (model.PlanStep{Text: "Read the code", Status: model.StepCompleted}) ||
			got.Steps[1] != (model.PlanStep{Text: "Run the tests", Status: model.StepInProgress}) {
			t.Fatalf("plan %s %+v, want the revised list without the cancelled todo", plan.Status, got)
		}
		if plan.Revision < 2 {
			t.Errorf("plan revision %d: the revision did not update it", plan.Revision)
		}
		if calls := r.Items(model.KindToolCall, done.TurnID); len(calls) != 0 {
			t.Errorf("todowrite also shown as tool calls: %d", len(calls))
		}
		if r.Last(model.KindAgentMessage, done.TurnID).Text() != opencodetest.PlanAnswer {
			t.Error("no answer after the plan")
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
}
