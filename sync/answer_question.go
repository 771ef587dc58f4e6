package sync

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/lookout-sh/lookout/model"
)

// ErrNoWaitingQuestion is AnswerWaitingQuestion's error when the session
// has no question waiting for an answer.
var ErrNoWaitingQuestion = errors.New("no question is waiting in the session")

// AnswerWaitingQuestion answers a question of a session on one short
// connection (question/respond) and returns the id of the question it
// answered. With questionID "" it answers the newest question still
// waiting, which it learns from a snapshot of the session. The host's
// refusal is a *CallError (-32602 for an answer that does not fit, -32010
// for a question already answered or cancelled).
func AnswerWaitingQuestion(ctx context.Context, opts Options, sessionID, questionID string, ans model.QuestionAnswer) (string, error) {
	err := oneShot(ctx, opts, func(call callFunc) error {
		if questionID == "" {
			raw, err := call("session/subscribe", map[string]any{"sessionId": sessionID, "limit": 200})
			if err != nil {
				return err
			}
			var sub struct {
				Snapshot *struct {
					Items []json.RawMessage `json:"items"`
				} `json:"snapshot"`
			}
			if err := json.Unmarshal(raw, &sub); err != nil || sub.Snapshot == nil {
				return errors.New("the host's subscribe answer holds no snapshot")
			}
			for _, r := range sub.Snapshot.Items {
				it, err := model.DecodeItem(r)
				if err == nil && it.Kind == model.KindQuestion && it.IsOpen() {
					questionID = it.ID
				}
			}
			if questionID == "" {
				return ErrNoWaitingQuestion
			}
		}
		sel := ans.Selected
		if sel == nil {
			sel = []string{}
		}
		_, err := call("question/respond", map[string]any{"sessionId": sessionID, "questionId": questionID,
			"answer": map[string]any{"selected": sel, "text": ans.Text}})
		return err
	})
	return questionID, err
}
