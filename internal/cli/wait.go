package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
)

// What `lookout wait --for` waits for.
const (
	waitApproval = "approval" // an approval waits for an answer
	waitQuestion = "question" // the agent's question waits for an answer
	waitIdle     = "idle"     // no turn runs or waits
	waitFailed   = "failed"   // the last turn failed, and none ran since
)

var waitStates = []string{waitApproval, waitQuestion, waitIdle, waitFailed}

func newWaitCmd() *cobra.Command {
	var f clientFlags
	var state string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "wait [URL] --for approval|question|idle|failed",
		Short: "Wait until a session needs its user, or is idle",
		Long: `Wait until a session is in the state --for names, and exit 0:

  approval  an approval waits for an answer (its id and what it asks go to
            stdout: "APPROVAL-ID<tab>summary")
  question  the agent's question waits for an answer (its id and text go
            to stdout: "QUESTION-ID<tab>question"; answer it with
            lookout answer)
  idle      no turn runs and none is queued
  failed    the session's last turn failed, and no turn ran since

A state that already holds counts: wait returns at once. It decides only on
a live, caught-up view of the session, never on a cached one.

Without --session it waits on the host's most recently updated session.
Exits 7 when --timeout passes first; 3, 4 and 5 as the other commands do.

` + urlHelp,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageErr(errors.New("wait takes at most a URL"))
			}
			if !slices.Contains(waitStates, state) {
				return usageErr(fmt.Errorf("wait: --for is one of %s, not %q", strings.Join(waitStates, ", "), state))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, timeout)
				defer cancel()
			}
			var line string
			met := false
			err := follow(ctx, f.options(args), cmd.ErrOrStderr(), nil, func(s sync.Picture, _ *sync.Client) (bool, error) {
				if s.Freshness.State != sync.Live {
					return false, nil
				}
				line, met = waitMet(state, s.View)
				return met, nil
			})
			if !met && errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return &exitError{code: exitTimeout, err: fmt.Errorf("wait: the session was not %s within %v", state, timeout)}
			}
			if err == nil && line != "" {
				fmt.Fprintln(cmd.OutOrStdout(), line)
			}
			return err
		},
	}
	f.add(cmd, true)
	cmd.Flags().StringVar(&state, "for", "", "the state to wait for: "+strings.Join(waitStates, ", "))
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "give up after this long (exit 7); 0 waits for ever")
	return cmd
}

// waitMet decides whether v is in state, and what wait prints then (one
// clean line, or "").
func waitMet(state string, v *model.View) (string, bool) {
	if v == nil {
		return "", false
	}
	switch state {
	case waitApproval:
		if len(v.Approvals) == 0 {
			return "", false
		}
		a := v.Approvals[0]
		return termtext.Line(a.ApprovalID) + "\t" + termtext.VisibleLine(a.Summary), true
	case waitQuestion:
		qs := model.WaitingQuestions(v.Items, v.ActiveTurn)
		if len(qs) == 0 {
			return "", false
		}
		return termtext.Line(qs[0].ID) + "\t" + termtext.VisibleLine(qs[0].QuestionOf().Text), true
	case waitIdle:
		return "", v.ActiveTurn == nil && len(v.QueuedTurns) == 0
	case waitFailed:
		busy := v.ActiveTurn != nil || len(v.QueuedTurns) > 0
		return "", !busy && v.LastTurn != nil && v.LastTurn.Status == model.StatusFailed
	}
	return "", false
}
