package host

import (
	"context"
	"strings"

	"github.com/lookout-sh/lookout/model"
)

// demoQuestion asks the user which test suite to run (several at once
// with multiple), then says what they chose. A question cancelled by the
// turn's end returns the context's error.
func demoQuestion(ctx context.Context, t *Turn, multiple bool) error {
	q := model.Question{
		Header: "Test suite",
		Text:   "Which tests should I run?",
		Options: []model.QuestionOption{
			{Label: "Unit", Description: "go test ./... (about 40 s)"},
			{Label: "Race", Description: "go test -race ./... (about 3 min)"},
			{Label: "End to end", Description: "the tmux tests in e2e/"},
		},
		Multiple: multiple,
		FreeText: true,
	}
	if multiple {
		q.Text = "Which test suites should I run? Pick any."
	}
	ans, err := t.AskQuestion(ctx, q)
	if err != nil {
		return err
	}
	return demoMessage(ctx, t, demoAnswerSaid(ans), 16)
}

// demoAnswerSaid is the demo agent's reply to an answer.
func demoAnswerSaid(a model.QuestionAnswer) string {
	var b strings.Builder
	b.WriteString("You answered")
	if len(a.Selected) > 0 {
		b.WriteString(": **" + strings.Join(a.Selected, "**, **") + "**")
	}
	if a.Text != "" {
		b.WriteString(" and said: " + a.Text)
	}
	b.WriteString(".\n")
	return b.String()
}
