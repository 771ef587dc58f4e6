package claude_test

import (
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/claude/claudetest"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// The real Claude Code asks AskUserQuestion; Lookout shows it as a
// question, a second client answers, and the model gets the answer in
// the tool_result Claude Code makes of it.
func TestAskUserQuestionAnswerReachesTheModel(t *testing.T) {
	r := newRig(t, rigOptions{})
	other, otherState := r.AnotherClient()
	turn := r.Submit("ask user which database to use")
	ev, _ := r.Until("the question", agenttest.IsQuestion)
	q := r.State.Item(ev.Item.ID).QuestionOf()
	if q.Text != claudetest.AskQuestion || q.Header != claudetest.AskHeader || q.Multiple || !q.FreeText ||
		len(q.Options) != 2 || q.Options[1].Label != claudetest.AskOptions[1] {
		t.Fatalf("question = %+v", q)
	}
	before := len(r.fake.Requests())
	other.MustCall(t, "question/respond", map[string]any{"sessionId": r.SessionID, "questionId": ev.Item.ID,
		"answer": map[string]any{"selected": []string{claudetest.AskOptions[1]}}}, nil)
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	agenttest.WantCompleted(t, done)
	if got := r.State.Item(ev.Item.ID); got.Status != model.StatusAnswered {
		t.Fatalf("the first client's question is %s", got.Status)
	}
	if _, _, err := other.WaitEvent(otherState, hosttest.TurnCompleted(turn)); err != nil {
		t.Fatal(err)
	}
	if got := otherState.Item(ev.Item.ID); got.Status != model.StatusAnswered {
		t.Fatalf("the answering client's question is %s", got.Status)
	}
	var result *claudetest.Block
	for _, req := range r.fake.Requests()[before:] {
		for _, m := range req.Messages {
			for i, b := range m.Blocks {
				if b.Type == "tool_result" {
					result = &m.Blocks[i]
				}
			}
		}
	}
	want := `"` + claudetest.AskQuestion + `"="` + claudetest.AskOptions[1] + `"`
	if result == nil || result.IsError || !strings.Contains(result.Text, want) {
		t.Fatalf("the model's tool_result is %+v, want one carrying %s", result, want)
	}
	if reply := r.Last(model.KindAgentMessage, turn).Text(); !strings.Contains(reply, claudetest.AskAnswerPrefix) {
		t.Errorf("the reply %q does not follow the answer", reply)
	}
}

// An interrupt withdraws Claude Code's question: it ends cancelled.
func TestInterruptCancelsClaudesQuestion(t *testing.T) {
	r := newRig(t, rigOptions{})
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
}
