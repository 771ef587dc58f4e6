package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lookout-sh/lookout/model"
)

// askUserInput is AskUserQuestion's input: up to four questions, each
// with a header, two to four options and whether several may be picked.
type askUserInput struct {
	Questions []struct {
		Question string `json:"question"`
		Header   string `json:"header"`
		Options  []struct {
			Label       string `json:"label"`
			Description string `json:"description"`
		} `json:"options"`
		MultiSelect bool `json:"multiSelect"`
	} `json:"questions"`
}

// askUserQuestions reads AskUserQuestion's input as Lookout questions.
// Claude Code always lets the user type an answer of their own ("Other"),
// so every question takes free text.
func askUserQuestions(input json.RawMessage) ([]model.Question, error) {
	var in askUserInput
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, fmt.Errorf("AskUserQuestion input: %w", err)
	}
	if len(in.Questions) == 0 {
		return nil, fmt.Errorf("AskUserQuestion asks no question")
	}
	out := make([]model.Question, 0, len(in.Questions))
	for _, q := range in.Questions {
		mq := model.Question{Text: q.Question, Header: q.Header, Multiple: q.MultiSelect, FreeText: true}
		for _, o := range q.Options {
			mq.Options = append(mq.Options, model.QuestionOption{Label: o.Label, Description: o.Description})
		}
		if err := model.CheckQuestion(mq); err != nil {
			return nil, err
		}
		out = append(out, mq)
	}
	return out, nil
}

// claudeAnswer is one answer as AskUserQuestion's answers map holds it:
// the labels picked, comma-separated, then any text the user typed.
func claudeAnswer(a model.QuestionAnswer) string {
	parts := append([]string(nil), a.Selected...)
	if a.Text != "" {
		parts = append(parts, a.Text)
	}
	return strings.Join(parts, ", ")
}

// askUserAllow is the permission response that answers AskUserQuestion:
// allow, with the input as asked plus answers (question text -> answer),
// which Claude Code's tool turns into the model's tool_result.
func askUserAllow(input json.RawMessage, qs []model.Question, answers []model.QuestionAnswer) (map[string]any, error) {
	var in map[string]any
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	m := make(map[string]any, len(qs))
	for i, q := range qs {
		m[q.Text] = claudeAnswer(answers[i])
	}
	in["answers"] = m
	return map[string]any{"behavior": "allow", "updatedInput": in}, nil
}

// askQuestionsLocked puts AskUserQuestion's questions to the user, one
// after another, on its own goroutine, and answers Claude Code's prompt
// with every answer once the last one comes. A question withdrawn or
// cancelled (the turn was interrupted) denies the prompt as an approval
// would be.
func (ts *turnState) askQuestionsLocked(requestID string, req permissionRequest) error {
	c := ts.s.p.conn
	qs, err := askUserQuestions(req.Input)
	if err != nil {
		_ = c.respond(requestID, map[string]any{"behavior": "deny", "message": "Lookout could not read the questions: " + err.Error()})
		return ts.t.Warning(model.Warning{RequestKind: "agent", Code: "badQuestion",
			Message: "Claude Code asked questions Lookout could not read (" + err.Error() + "); they were refused"})
	}
	oi := ts.tools[req.ToolUseID]
	actx, cancel := context.WithCancel(ts.ctx)
	ts.approvals[requestID] = cancel
	go func() {
		defer cancel()
		answers := make([]model.QuestionAnswer, 0, len(qs))
		for _, q := range qs {
			a, err := ts.t.AskQuestion(actx, q)
			if err != nil {
				ts.mu.Lock()
				_, pending := ts.approvals[requestID]
				delete(ts.approvals, requestID)
				if pending && ts.ctx.Err() != nil {
					_ = c.respond(requestID, map[string]any{"behavior": "deny", "message": "The turn was interrupted.", "interrupt": true})
				}
				ts.mu.Unlock()
				return // withdrawn by Claude Code: it wants no answer
			}
			answers = append(answers, a)
		}
		ts.mu.Lock()
		defer ts.mu.Unlock()
		delete(ts.approvals, requestID)
		allow, err := askUserAllow(req.Input, qs, answers)
		if err != nil {
			_ = c.respond(requestID, map[string]any{"behavior": "deny", "message": "Lookout could not pass the answers on."})
			return
		}
		_ = c.respond(requestID, allow)
		if oi != nil && !ts.outcome.Finished() {
			ts.toRunningLocked(oi)
		}
	}()
	return nil
}
