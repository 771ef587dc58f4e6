package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/render"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
)

// exitQuestionSettled is answer's exit when the question was already
// answered or cancelled (another client's answer came first).
const exitQuestionSettled = exitTurnFailed

func newAnswerCmd() *cobra.Command {
	var f clientFlags
	var question, text string
	var options []string
	cmd := &cobra.Command{
		Use:   "answer [URL] --session ID [--question ID] [--option LABEL]... [--text TEXT]",
		Short: "Answer a question the agent is waiting on",
		Long: "Answer a question item of a session: the newest one still waiting, or --question ID.\n" +
			"--option picks an option by its label (repeat it for a multiple choice), --text gives\n" +
			"an answer of your own where the question takes one. The first answer wins: exit 6 when\n" +
			"the question was already answered or cancelled, 2 when the answer does not fit it, 4\n" +
			"when the session is unknown.\n\n" + urlHelp,
		Args: hostArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.session == "" {
				return usageErr(errors.New("answer needs --session ID (lookout sessions lists them)"))
			}
			if len(options) == 0 && text == "" {
				return usageErr(errors.New("answer needs --option LABEL or --text TEXT"))
			}
			ctx, cancel := context.WithTimeout(cmdContext(cmd), 30*time.Second)
			defer cancel()
			ans := model.QuestionAnswer{Selected: options, Text: text}
			id, err := sync.AnswerWaitingQuestion(ctx, f.options(args), f.session, question, ans)
			if err != nil {
				return classifyAnswerErr(f.session, err)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "answered question %s: %s\n", termtext.Line(id), render.QuestionAnswerText(ans))
			return err
		},
	}
	f.add(cmd, false)
	cmd.Flags().StringVar(&f.session, "session", "", "the session whose question to answer (required)")
	cmd.Flags().StringVar(&question, "question", "", "the question's item id (default: the newest waiting one)")
	cmd.Flags().StringArrayVar(&options, "option", nil, "the label of an option to pick (repeatable)")
	cmd.Flags().StringVar(&text, "text", "", "an answer in your own words")
	return cmd
}

// classifyAnswerErr maps answer's failures to exit codes.
func classifyAnswerErr(session string, err error) error {
	var ce *sync.CallError
	switch {
	case errors.Is(err, sync.ErrNoWaitingQuestion):
		return &exitError{code: exitQuestionSettled, err: err}
	case errors.As(err, &ce) && ce.Code == model.CodeUnknownSession:
		return noSessionErr(session)
	case errors.As(err, &ce) && ce.Code == model.CodeRejected:
		return &exitError{code: exitQuestionSettled, err: err}
	case errors.As(err, &ce) && ce.Code == model.CodeInvalidParams:
		return usageErr(err)
	}
	return classifyListErr(err)
}
