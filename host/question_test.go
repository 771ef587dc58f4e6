package host_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// waitQuestion waits for the demo agent's question to open and returns it.
func waitQuestion(t *testing.T, c *hosttest.Client, st *model.State) *model.Item {
	t.Helper()
	ev, _, err := c.WaitEvent(st, func(ev *model.Event) bool {
		return ev.Method == model.MethodItemStarted && ev.Item.Kind == model.KindQuestion
	})
	if err != nil {
		t.Fatal(err)
	}
	return st.Item(ev.Item.ID)
}

func answerParams(sid, qid string, selected []string, text string) map[string]any {
	return map[string]any{"sessionId": sid, "questionId": qid, "answer": map[string]any{"selected": selected, "text": text}}
}

func errReason(t *testing.T, e *model.RPCError) map[string]any {
	t.Helper()
	var data map[string]any
	if e == nil || json.Unmarshal(e.Data, &data) != nil {
		t.Fatalf("error %+v has no data", e)
	}
	return data
}

// Two clients watch one question: the second answers, the first sees it
// answered, the same answer again is {}, another one is refused.
func TestQuestionFirstAnswerWinsForEveryClient(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	a := hosttest.Dial(t, h)
	sid, _, stA := newSession(t, a)
	b := hosttest.Dial(t, h)
	sub, err := b.Subscribe(sid, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	stB := model.NewState(sid)
	if _, err := stB.LoadSnapshot(sid, sub.Epoch, *sub.Snapshot); err != nil {
		t.Fatal(err)
	}
	_, turn, err := a.Submit(sid, "q", "ask me a question")
	if err != nil {
		t.Fatal(err)
	}
	q := waitQuestion(t, a, stA)
	if got := q.QuestionOf(); q.Status != model.StatusWaitingUser || got.Header != "Test suite" || len(got.Options) != 3 || got.Multiple || !got.FreeText {
		t.Fatalf("question = %s", q.AppendJSON(nil))
	}
	waitQuestion(t, b, stB)

	for _, bad := range []struct {
		selected []string
		text     string
		reason   model.AnswerProblem
	}{
		{[]string{"Nope"}, "", model.AnswerUnknownOption},
		{[]string{"Unit", "Race"}, "", model.AnswerTooMany},
		{nil, "", model.AnswerEmpty},
	} {
		e := rpcCode(t, b, "question/respond", answerParams(sid, q.ID, bad.selected, bad.text))
		if e == nil || e.Code != model.CodeInvalidParams || errReason(t, e)["reason"] != string(bad.reason) {
			t.Fatalf("answer %v: %+v, want -32602 %s", bad.selected, e, bad.reason)
		}
	}
	b.MustCall(t, "question/respond", answerParams(sid, q.ID, []string{"Race"}, "and be quick"), nil)
	b.MustCall(t, "question/respond", answerParams(sid, q.ID, []string{"Race"}, "and be quick"), nil) // a resend
	e := rpcCode(t, a, "question/respond", answerParams(sid, q.ID, []string{"Unit"}, ""))
	if e == nil || e.Code != model.CodeRejected {
		t.Fatalf("a later answer: %+v, want -32010", e)
	}
	if d := errReason(t, e); d["reason"] != "questionSettled" || d["status"] != model.StatusAnswered {
		t.Fatalf("a later answer's data = %v", d)
	}
	if _, _, err := a.WaitEvent(stA, hosttest.TurnCompleted(turn)); err != nil {
		t.Fatal(err)
	}
	for name, st := range map[string]*model.State{"first": stA, "second": stB} {
		if name == "second" {
			if _, _, err := b.WaitEvent(st, hosttest.TurnCompleted(turn)); err != nil {
				t.Fatal(err)
			}
		}
		got := st.Item(q.ID)
		ans, ok := got.AnswerOf()
		if got.Status != model.StatusAnswered || !ok || !ans.Equal(model.QuestionAnswer{Selected: []string{"Race"}, Text: "and be quick"}) {
			t.Fatalf("%s client's question = %s", name, got.AppendJSON(nil))
		}
	}
	named := false
	for _, m := range itemsOfKind(stA, model.KindAgentMessage) {
		named = named || strings.Contains(m.Text(), "You answered: **Race** and said: and be quick")
	}
	if !named {
		t.Fatal("the agent's reply does not name the answer")
	}
}

func TestInterruptWithdrawsTheQuestion(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	_, turn, _ := c.Submit(sid, "q", "pick a multiple choice")
	q := waitQuestion(t, c, st)
	if !q.QuestionOf().Multiple {
		t.Fatal("multiple choice question is single choice")
	}
	c.MustCall(t, "turn/interrupt", map[string]any{"sessionId": sid, "turnId": turn}, nil)
	if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(turn)); err != nil {
		t.Fatal(err)
	}
	if got := st.Item(q.ID); got.Status != model.StatusCancelled || got.IsOpen() {
		t.Fatalf("question after the interrupt = %s", got.AppendJSON(nil))
	}
	e := rpcCode(t, c, "question/respond", answerParams(sid, q.ID, []string{"Unit"}, ""))
	if e == nil || e.Code != model.CodeRejected || errReason(t, e)["status"] != model.StatusCancelled {
		t.Fatalf("answering a withdrawn question: %+v", e)
	}
	if e := rpcCode(t, c, "question/respond", answerParams(sid, "nope", []string{"Unit"}, "")); e == nil || e.Code != model.CodeInvalidParams {
		t.Fatalf("an unknown question: %+v", e)
	}
}

// How a question ended outlives the host: after a restart the same answer
// is still {} and another is still refused.
func TestQuestionSettlementSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	h := hosttest.Start(t, host.Options{DataDir: dir})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	_, turn, _ := c.Submit(sid, "q", "a question")
	q := waitQuestion(t, c, st)
	c.MustCall(t, "question/respond", answerParams(sid, q.ID, []string{"Unit"}, ""), nil)
	if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(turn)); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	h2 := hosttest.Start(t, host.Options{DataDir: dir})
	c2 := hosttest.Dial(t, h2)
	c2.MustCall(t, "question/respond", answerParams(sid, q.ID, []string{"Unit"}, ""), nil)
	if e := rpcCode(t, c2, "question/respond", answerParams(sid, q.ID, []string{"Race"}, "")); e == nil || e.Code != model.CodeRejected {
		t.Fatalf("another answer after a restart: %+v", e)
	}
	var init struct {
		Features map[string]any `json:"features"`
	}
	c2.MustCall(t, "initialize", map[string]any{"clientInfo": map[string]string{"name": "t", "version": "0"}}, &init)
	if init.Features["questions"] != true {
		t.Fatalf("features = %v, want questions", init.Features)
	}
}

// A question waiting when its host is killed is cancelled, endedBy
// hostDeath, on the next start, and an answer then is refused.
func TestKilledHostCancelsTheWaitingQuestion(t *testing.T) {
	dir := t.TempDir()
	proc, c := startHostProcess(t, dir)
	sid, _, st := newSession(t, c)
	if _, _, err := c.Submit(sid, "q", "a question"); err != nil {
		t.Fatal(err)
	}
	q := waitQuestion(t, c, st)
	if err := proc.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-c.Done()
	_, c2 := startHostProcess(t, dir)
	sub, err := c2.Subscribe(sid, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	st2 := model.NewState(sid)
	if _, err := st2.LoadSnapshot(sid, sub.Epoch, *sub.Snapshot); err != nil {
		t.Fatal(err)
	}
	got := st2.Item(q.ID)
	if got == nil || got.Status != model.StatusCancelled || got.EndedBy() != "hostDeath" {
		t.Fatalf("after the restart the question is %v", got)
	}
	e := rpcCode(t, c2, "question/respond", answerParams(sid, q.ID, []string{"Unit"}, ""))
	if e == nil || e.Code != model.CodeRejected || errReason(t, e)["status"] != model.StatusCancelled {
		t.Fatalf("answering after the host's death: %+v", e)
	}
}
