package codex_test

import (
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// The real Codex asks request_user_input (item/tool/requestUserInput);
// Lookout shows it as a question, a second client answers, and the model
// gets the answer as the tool's output. One Codex serves both scenarios.
func TestCodexQuestions(t *testing.T) {
	base := newRig(t, rigOptions{})

	t.Run("AnsweredFromAnotherClient", func(t *testing.T) {
		r := base.fork(t)
		other, otherState := r.AnotherClient()
		turn := r.Submit("ask user which database to use")
		ev, _ := r.Until("the question", agenttest.IsQuestion)
		q := r.State.Item(ev.Item.ID).QuestionOf()
		if q.Text != codextest.AskQuestion || q.Header != codextest.AskHeader || q.Multiple || !q.FreeText || // Codex offers "other" itself

			len(q.Options) != 2 || q.Options[1].Label != codextest.AskOptions[1] {
			t.Fatalf("question = %+v", q)
		}
		before := len(r.fake.Requests())
		other.MustCall(t, "question/respond", map[string]any{"sessionId": r.SessionID, "questionId": ev.Item.ID,
			"answer": map[string]any{"selected": []string{codextest.AskOptions[1]}}}, nil)
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
		want := `"` + codextest.AskQuestionID + `":{"answers":["` + codextest.AskOptions[1] + `"]}`
		told := false
		for _, req := range r.fake.Requests()[before:] {
			for _, in := range req.Input {
				told = told || (in.Type == "function_call_output" && strings.Contains(in.Output, want))
			}
		}
		if !told {
			t.Fatalf("no model request after the answer carries %s as the tool's output", want)
		}
		if reply := r.Last(model.KindAgentMessage, turn).Text(); !strings.HasPrefix(reply, codextest.AskAnswerPrefix) {
			t.Errorf("the reply %q does not follow the answer", reply)
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
}
