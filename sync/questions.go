package sync

import (
	"encoding/json"
	"sort"

	"github.com/lookout-sh/lookout/model"
)

// Question answers the user gave that the host has not confirmed. One
// given offline waits here and is sent once the next connection has
// caught up, if the question still waits then; one in flight when a
// connection drops is sent again. Sending again is safe: the host
// answers the same answer to an answered question with {}.

type questionAnswerState struct {
	answer   model.QuestionAnswer
	inflight bool
	sent     bool
}

// AnswerQuestion answers a question item (question/respond): the labels
// picked and any free text. The host's refusal (the question ended
// otherwise, or the answer does not fit) is reported in Picture.Errors.
func (c *Client) AnswerQuestion(questionID string, answer model.QuestionAnswer) {
	c.enqueue(func() { c.loop.answerQuestion(questionID, answer) })
}

func (l *loopState) answerQuestion(id string, ans model.QuestionAnswer) {
	a := l.questionAnswers[id]
	if a == nil {
		a = &questionAnswerState{}
		l.questionAnswers[id] = a
	}
	if a.inflight {
		return // the host takes the first answer it gets
	}
	a.answer = ans
	l.dirty = true
	if l.ready() {
		l.sendQuestionAnswer(id, a)
	}
}

func (l *loopState) sendQuestionAnswer(id string, a *questionAnswerState) {
	a.inflight, a.sent = true, true
	sel := a.answer.Selected
	if sel == nil {
		sel = []string{}
	}
	params := map[string]any{"sessionId": l.sessionID, "questionId": id,
		"answer": map[string]any{"selected": sel, "text": a.answer.Text}}
	l.call("question/respond", params, func(_ json.RawMessage, rerr *model.RPCError) {
		a.inflight = false
		if l.questionAnswers[id] != a {
			return
		}
		delete(l.questionAnswers, id)
		l.dirty = true
		if rerr != nil {
			l.addError("question/respond: " + rerr.Message)
		}
	})
}

// reconcileQuestionAnswers runs once a new connection has caught up: the
// same decision as an approval's answer (decideAnswer), with "pending"
// meaning the question item is still open.
func (l *loopState) reconcileQuestionAnswers() {
	ids := make([]string, 0, len(l.questionAnswers))
	for id := range l.questionAnswers {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		a := l.questionAnswers[id]
		it := l.st.Item(id)
		switch decideAnswer(it != nil && it.IsOpen(), a.inflight, a.sent) {
		case answerSend:
			l.sendQuestionAnswer(id, a)
		case answerDropUnsent:
			l.addError("question answer not sent: question " + id + " ended before the connection came back")
			fallthrough
		case answerDrop:
			delete(l.questionAnswers, id)
			l.dirty = true
		}
	}
}
