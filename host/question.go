package host

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/lookout-sh/lookout/model"
)

// ErrQuestionCancelled is AskQuestion's error when the question ended
// without an answer while the agent still waited: the turn ended, or the
// host is closing.
var ErrQuestionCancelled = errors.New("question cancelled")

// questionWait is a question item waiting for its answer.
type questionWait struct {
	id     string
	turnID string
	q      model.Question
	ch     chan model.QuestionAnswer
}

// questionEnd is how a question ended: status answered (with answer) or
// cancelled. A session remembers every one for idempotent answers.
type questionEnd struct {
	status string
	answer model.QuestionAnswer
}

// AskQuestion puts a question to the user as a question item (status
// waitingUser) and waits for the answer, which the first question/respond
// to arrive gives; the item then ends answered with it. When ctx ends
// first while the turn goes on, the agent has withdrawn the question: the
// item ends cancelled at once and ctx's error is returned. A history turn
// is answered at once with the first option. An invalid question
// (model.CheckQuestion) is refused with an error and nothing is emitted.
func (t *Turn) AskQuestion(ctx context.Context, q model.Question) (model.QuestionAnswer, error) {
	if err := model.CheckQuestion(q); err != nil {
		return model.QuestionAnswer{}, err
	}
	if err := t.lock(); err != nil {
		return model.QuestionAnswer{}, err
	}
	s := t.s
	id, err := s.newItemLocked(t.run, model.MethodItemStarted, model.KindQuestion, model.StatusWaitingUser, questionFields(q))
	if err != nil {
		s.mu.Unlock()
		return model.QuestionAnswer{}, err
	}
	w := &questionWait{id: id, turnID: t.run.id, q: q, ch: make(chan model.QuestionAnswer, 1)}
	s.questions[id] = w
	if t.run.history {
		if err := s.settleQuestionLocked(id, model.StatusAnswered, historyAnswer(q)); err != nil {
			s.mu.Unlock()
			return model.QuestionAnswer{}, err
		}
	}
	s.mu.Unlock()
	select {
	case ans, ok := <-w.ch:
		if !ok {
			return model.QuestionAnswer{}, ErrQuestionCancelled
		}
		return ans, nil
	case <-ctx.Done():
		s.mu.Lock()
		if _, waiting := s.questions[id]; waiting && !t.run.finished {
			// A refusal is logged by emitLocked; the turn's end retries.
			_ = s.settleQuestionLocked(id, model.StatusCancelled, model.QuestionAnswer{})
		}
		s.mu.Unlock()
		return model.QuestionAnswer{}, ctx.Err()
	}
}

// questionFields are a question item's kind-specific members.
func questionFields(q model.Question) map[string]any {
	opts := make([]any, len(q.Options))
	for i, o := range q.Options {
		m := map[string]any{"label": o.Label}
		if o.Description != "" {
			m["description"] = o.Description
		}
		opts[i] = m
	}
	f := map[string]any{"text": q.Text, "options": opts, "multiple": q.Multiple, "freeText": q.FreeText}
	if q.Header != "" {
		f["header"] = q.Header
	}
	return f
}

// historyAnswer is a scripted history turn's answer: the first option, or
// a word of free text for a question without options.
func historyAnswer(q model.Question) model.QuestionAnswer {
	if len(q.Options) > 0 {
		return model.QuestionAnswer{Selected: []string{q.Options[0].Label}}
	}
	return model.QuestionAnswer{Selected: []string{}, Text: "yes"}
}

// answerFields is the answer member of an answered question item.
func answerFields(a model.QuestionAnswer) map[string]any {
	sel := make([]any, len(a.Selected))
	for i, l := range a.Selected {
		sel[i] = l
	}
	m := map[string]any{"selected": sel}
	if a.Text != "" {
		m["text"] = a.Text
	}
	return m
}

// settleQuestionLocked ends a waiting question item: answered with ans,
// or cancelled. It hands the answer to the agent waiting for it (a
// cancelled wait's channel is closed) and remembers the end.
func (s *session) settleQuestionLocked(id, status string, ans model.QuestionAnswer) error {
	var fields map[string]any
	if status == model.StatusAnswered {
		fields = map[string]any{"answer": answerFields(ans)}
	}
	if err := s.completeItemLocked(id, status, fields); err != nil {
		return err
	}
	if w := s.questions[id]; w != nil {
		delete(s.questions, id)
		if status == model.StatusAnswered {
			w.ch <- ans
		} else {
			close(w.ch)
		}
	}
	s.questionEnds[id] = questionEnd{status: status, answer: ans}
	return nil
}

// cancelQuestionsLocked cancels every question a turn still waits on.
func (s *session) cancelQuestionsLocked(turnID string) {
	var ids []string
	for id, w := range s.questions {
		if w.turnID == turnID {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		if err := s.settleQuestionLocked(id, model.StatusCancelled, model.QuestionAnswer{}); err != nil {
			s.h.log.Error("could not cancel a question", "session", s.id, "question", id, "err", err)
		}
	}
}

// answerQuestion answers a waiting question (question/respond). The first
// answer wins; the same answer again is {} (a client resending what it
// cannot know arrived), any other answer to an ended question is -32010
// questionSettled, naming how it ended.
func (s *session) answerQuestion(id string, ans model.QuestionAnswer) *rpcError {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.questions[id]
	if w == nil {
		end, ended := s.questionEndLocked(id)
		if !ended {
			return errInvalidParams("invalid params: unknown questionId " + id)
		}
		if end.status == model.StatusAnswered && sameAnswer(end.answer, ans) {
			return nil
		}
		return errQuestionSettled(id, end)
	}
	if p := model.CheckAnswer(w.q, ans); p != model.AnswerOK {
		return &rpcError{Code: model.CodeInvalidParams,
			Message: fmt.Sprintf("invalid params: the answer does not fit the question (%s)", p),
			Data:    map[string]any{"reason": string(p), "maxTextBytes": model.MaxAnswerTextBytes}}
	}
	if err := s.settleQuestionLocked(id, model.StatusAnswered, model.InQuestionOrder(w.q, ans)); err != nil {
		return errJournalUnavailable(err)
	}
	return nil
}

// sameAnswer reports whether two answers pick the same options (in any
// order) with the same text.
func sameAnswer(a, b model.QuestionAnswer) bool {
	x, y := slices.Clone(a.Selected), slices.Clone(b.Selected)
	slices.Sort(x)
	slices.Sort(y)
	return a.Text == b.Text && slices.Equal(x, y)
}

// reasonQuestionSettled is data.reason of question/respond's -32010 for a
// question that has ended otherwise.
const reasonQuestionSettled = "questionSettled"

func errQuestionSettled(id string, end questionEnd) *rpcError {
	data := map[string]any{"reason": reasonQuestionSettled, "status": end.status}
	msg := "question " + id + " was cancelled"
	if end.status == model.StatusAnswered {
		data["answer"] = answerFields(end.answer)
		msg = "question " + id + " was already answered"
	}
	return &rpcError{Code: model.CodeRejected, Message: "rejected: " + msg, Data: data}
}

// questionEndLocked is how a question that no longer waits ended, and
// whether it is one: remembered since this host started, else read from
// the item's latest full object (held, or in the journal: a question
// answered before a restart).
func (s *session) questionEndLocked(id string) (questionEnd, bool) {
	if end, ok := s.questionEnds[id]; ok {
		return end, true
	}
	it := s.state.Item(id)
	if it == nil {
		seq, ok := s.fullSeq[id]
		if !ok {
			return questionEnd{}, false
		}
		evs, err := s.h.j.readSeqs(s.id, []int64{seq})
		if err != nil || len(evs) != 1 {
			return questionEnd{}, false
		}
		ev, err := model.DecodeNotification(evs[0].Method, evs[0].Params)
		if err != nil || ev.Item == nil {
			return questionEnd{}, false
		}
		it = ev.Item
	}
	if it.Kind != model.KindQuestion || !model.IsTerminalItemStatus(it.Status) {
		return questionEnd{}, false
	}
	a, _ := it.AnswerOf()
	end := questionEnd{status: it.Status, answer: a}
	s.questionEnds[id] = end
	return end, true
}
