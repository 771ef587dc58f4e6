package codex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lookout-sh/lookout/model"
)

// userInputParams is the part of Codex's item/tool/requestUserInput
// request (its request_user_input tool) the bridge reads.
type userInputParams struct {
	Questions []codexQuestion `json:"questions"`
}

type codexQuestion struct {
	ID       string `json:"id"`
	Header   string `json:"header"`
	Question string `json:"question"`
	Options  []struct {
		Label       string `json:"label"`
		Description string `json:"description"`
	} `json:"options"`
	// IsOther lets the user type an answer of their own.
	IsOther bool `json:"isOther"`
	// IsSecret asks for a masked answer (a password, a token).
	IsSecret bool `json:"isSecret"`
}

// errSecretQuestion refuses a question whose answer is a secret: Lookout
// journals every answer and shows it to every client, so a secret belongs
// in Codex's own TUI.
var errSecretQuestion = errors.New("it asks for a secret, which Lookout would store and show to every client")

// lookoutQuestions are Codex's questions as Lookout asks them, or why one
// of them cannot be asked. A question without options can only be
// answered in words.
func lookoutQuestions(p userInputParams) ([]model.Question, error) {
	if len(p.Questions) == 0 {
		return nil, errors.New("no questions")
	}
	qs := make([]model.Question, 0, len(p.Questions))
	for i, cq := range p.Questions {
		if cq.ID == "" {
			return nil, fmt.Errorf("question %d has no id", i+1)
		}
		if cq.IsSecret {
			return nil, fmt.Errorf("question %d: %w", i+1, errSecretQuestion)
		}
		q := model.Question{Text: cq.Question, Header: cq.Header, FreeText: cq.IsOther || len(cq.Options) == 0,
			Options: make([]model.QuestionOption, 0, len(cq.Options))}
		for _, o := range cq.Options {
			q.Options = append(q.Options, model.QuestionOption{Label: o.Label, Description: o.Description})
		}
		if err := model.CheckQuestion(q); err != nil {
			return nil, fmt.Errorf("question %d: %w", i+1, err)
		}
		qs = append(qs, q)
	}
	return qs, nil
}

// codexAnswers are Lookout's answers in Codex's reply shape: by question
// id, the labels picked and then any typed text.
func codexAnswers(p userInputParams, answers []model.QuestionAnswer) map[string]any {
	out := make(map[string]any, len(answers))
	for i, a := range answers {
		words := append([]string{}, a.Selected...)
		if a.Text != "" {
			words = append(words, a.Text)
		}
		out[p.Questions[i].ID] = map[string]any{"answers": words}
	}
	return map[string]any{"answers": out}
}

// askUserInputLocked puts Codex's questions to the user, one after
// another, on a goroutine of its own so the turn keeps folding; the
// answers go back together as the request's reply. Questions Lookout
// cannot ask are declined with a warning.
func (ts *turnState) askUserInputLocked(m *message) error {
	var p userInputParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		_ = ts.th.p.conn.replyError(m.ID, -32602, "Lookout could not read the questions")
		return err
	}
	qs, err := lookoutQuestions(p)
	if err != nil {
		_ = ts.th.p.conn.replyError(m.ID, -32602, "Lookout cannot ask these questions: "+err.Error())
		return ts.t.Warning(model.Warning{RequestKind: "agent", Code: "badQuestion",
			Message: "Codex asked questions Lookout could not put to you (" + err.Error() + "); they were declined"})
	}
	actx, cancel := context.WithCancel(ts.ctx)
	key := string(m.ID)
	ts.approvals[key] = cancel
	go func() {
		defer cancel()
		answers := make([]model.QuestionAnswer, 0, len(qs))
		for _, q := range qs {
			a, err := ts.t.AskQuestion(actx, q)
			if err != nil {
				ts.mu.Lock()
				defer ts.mu.Unlock()
				delete(ts.approvals, key)
				if ts.ctx.Err() != nil {
					_ = ts.th.p.conn.replyError(m.ID, -32800, "the turn was interrupted")
				}
				return // withdrawn by Codex: it wants no answer
			}
			answers = append(answers, a)
		}
		ts.mu.Lock()
		defer ts.mu.Unlock()
		delete(ts.approvals, key)
		_ = ts.th.p.conn.reply(m.ID, codexAnswers(p, answers))
	}()
	return nil
}
