package opencode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lookout-sh/lookout/model"
)

// questionAsked is the properties of OpenCode's question.asked: the
// questions its question tool puts to the user, answered together.
type questionAsked struct {
	ID        string           `json:"id"`
	Questions []openCodeAskOne `json:"questions"`
	Tool      *struct {
		CallID string `json:"callID"`
	} `json:"tool"`
}

type openCodeAskOne struct {
	Question string `json:"question"`
	Header   string `json:"header"`
	Options  []struct {
		Label       string `json:"label"`
		Description string `json:"description"`
	} `json:"options"`
	Multiple bool `json:"multiple"`
	// Custom lets the user type an answer of their own; OpenCode's default
	// is true.
	Custom *bool `json:"custom"`
}

// lookoutQuestions are OpenCode's questions as Lookout asks them, or why
// one of them cannot be asked.
func lookoutQuestions(p questionAsked) ([]model.Question, error) {
	if len(p.Questions) == 0 {
		return nil, errors.New("no questions")
	}
	qs := make([]model.Question, 0, len(p.Questions))
	for i, oq := range p.Questions {
		q := model.Question{Text: oq.Question, Header: oq.Header, Multiple: oq.Multiple, FreeText: oq.Custom == nil || *oq.Custom,
			Options: make([]model.QuestionOption, 0, len(oq.Options))}
		for _, o := range oq.Options {
			q.Options = append(q.Options, model.QuestionOption{Label: o.Label, Description: o.Description})
		}
		if err := model.CheckQuestion(q); err != nil {
			return nil, fmt.Errorf("question %d: %w", i+1, err)
		}
		qs = append(qs, q)
	}
	return qs, nil
}

// openCodeAnswers are Lookout's answers in OpenCode's reply shape: per
// question, in order, the labels picked and then any typed text.
func openCodeAnswers(answers []model.QuestionAnswer) [][]string {
	out := make([][]string, len(answers))
	for i, a := range answers {
		out[i] = append([]string{}, a.Selected...)
		if a.Text != "" {
			out[i] = append(out[i], a.Text)
		}
	}
	return out
}

// askQuestionsLocked puts OpenCode's questions to the user, one after
// another, on a goroutine of their own so the turn keeps folding; the
// answers go back together as POST /question/{id}/reply. Questions
// Lookout cannot ask are refused with a warning.
func (ts *turnState) askQuestionsLocked(props json.RawMessage) error {
	var p questionAsked
	if err := json.Unmarshal(props, &p); err != nil {
		return err
	}
	if p.ID == "" {
		return nil
	}
	qs, err := lookoutQuestions(p)
	if err != nil {
		go ts.s.rejectQuestion(p.ID)
		return ts.t.Warning(model.Warning{RequestKind: "agent", Code: "badQuestion",
			Message: "OpenCode asked questions Lookout could not read (" + err.Error() + "); they were refused"})
	}
	var oi *openItem
	if p.Tool != nil {
		oi = ts.calls[p.Tool.CallID]
	}
	actx, cancel := context.WithCancel(ts.ctx)
	pq := &pendingPerm{cancel: cancel}
	ts.asks[p.ID] = pq
	go func() {
		defer cancel()
		answers := make([]model.QuestionAnswer, 0, len(qs))
		for _, q := range qs {
			a, err := ts.t.AskQuestion(actx, q)
			if err != nil {
				ts.mu.Lock()
				withdrawn := pq.withdrawn
				delete(ts.asks, p.ID)
				ts.mu.Unlock()
				if !withdrawn {
					// The turn ended or was interrupted: OpenCode keeps an
					// unanswered question pending even after an abort.
					ts.s.rejectQuestion(p.ID)
				}
				return
			}
			answers = append(answers, a)
		}
		ts.mu.Lock()
		delete(ts.asks, p.ID)
		ts.mu.Unlock()
		ts.s.replyQuestion(p.ID, openCodeAnswers(answers))
		ts.mu.Lock()
		defer ts.mu.Unlock()
		if oi != nil && !ts.outcome.Finished() {
			_ = ts.advanceLocked(oi, model.StatusRunning, nil)
		}
	}()
	return nil
}

// questionSettled folds question.replied and question.rejected: questions
// answered or refused elsewhere (another OpenCode client) are withdrawn,
// and the host ends them cancelled.
func (ts *turnState) questionSettled(props json.RawMessage) {
	var p struct {
		RequestID string `json:"requestID"`
	}
	if json.Unmarshal(props, &p) != nil {
		return
	}
	if pq := ts.asks[p.RequestID]; pq != nil {
		pq.withdrawn = true
		pq.cancel()
	}
}
