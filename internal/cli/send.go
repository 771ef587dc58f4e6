package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/render"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
)

func newSendCmd() *cobra.Command {
	var f clientFlags
	var onApproval, reason string
	var newSession, steer bool
	seenApproval := map[string]bool{}
	cmd := &cobra.Command{
		Use:   "send [URL] TEXT",
		Short: "Submit a prompt and wait for its turn to settle",
		Long: `Submit TEXT as a prompt to a session (with a fresh commandId, retried with the
same commandId through backpressure and reconnects, so it never runs twice),
wait until its turn settles, and print the agent's messages of that turn
(one cut at a bound ends with a note saying so).

A lone argument that looks like a host URL (ws://..., http(s)://...,
host:port) is refused (exit 2): the prompt is missing. To send such text,
name the URL first.

Exits 0 when the turn completes; 6 when the prompt is rejected, unqueued, or
its turn fails or is stopped; 5 when the host stays unreachable or the client
gives up sending.

With --steer, TEXT goes into the session's running turn instead (turn/steer:
the agent's next model call has it; Codex takes input mid-turn, Claude Code
and OpenCode do not), and send returns once the host has it, printing the
turn's id. It needs --session; exit 6 when no turn runs or the agent takes
no input mid-turn.

With --new, send first creates a session on the host (run by the host's
agent) and prints its id alone on the first line of stderr.

While the session waits for a tool approval, send says so on stderr and
keeps waiting (--on-approval ask, the default), or answers it itself
(--on-approval approve or deny). With deny, --reason TEXT tells the agent
what to do instead.

` + urlHelp,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usageErr(errors.New("send takes [URL] TEXT"))
			}
			if len(args) == 1 && looksLikeHostURL(args[0]) {
				// The prompt was forgotten: never send the URL as one.
				return usageErr(errors.New("send: its only argument is a host URL, and the prompt is missing: lookout send [URL] TEXT"))
			}
			if _, _, err := onApprovalDecision(onApproval); err != nil {
				return usageErr(err)
			}
			if err := checkSendReason(onApproval, reason); err != nil {
				return usageErr(err)
			}
			if newSession && f.session != "" {
				return usageErr(errors.New("send takes --new or --session, not both"))
			}
			if steer && f.session == "" {
				return usageErr(errors.New("send --steer needs --session ID: the session whose running turn takes the text"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			text := args[len(args)-1]
			if strings.TrimSpace(text) == "" {
				return usageErr(errors.New("send: TEXT is empty"))
			}
			decision, ask, _ := onApprovalDecision(onApproval) // checked in Args
			o := f.options(args[:len(args)-1])
			if steer {
				return steerSend(cmd, o, f.session, text)
			}
			if newSession {
				id, err := createSession(cmd.Context(), o)
				if err != nil {
					return err
				}
				fmt.Fprintln(cmd.ErrOrStderr(), termtext.Line(id))
				o.SessionID = id
			}
			var cid, turnID string
			var result string
			var waited sendWait
			err := follow(cmd.Context(), o, cmd.ErrOrStderr(), nil, func(s sync.Picture, c *sync.Client) (bool, error) {
				if cid == "" {
					cid = c.Submit(text)
					waited = sendWait{fresh: sync.Live}
					return false, nil
				}
				// Never wait in silence: say what the prompt waits for.
				now := sendWaitOf(s, cid)
				if line := sendWaitNotice(waited, now); line != "" {
					fmt.Fprintln(cmd.ErrOrStderr(), line)
				}
				waited = now
				if s.View != nil {
					for _, a := range s.View.Approvals {
						if seenApproval[a.ApprovalID] {
							continue
						}
						seenApproval[a.ApprovalID] = true
						// The summary is what gets approved: shown whole.
						id, summary := termtext.Line(a.ApprovalID), termtext.VisibleLine(a.Summary)
						if ask {
							fmt.Fprintf(cmd.ErrOrStderr(), "lookout: waiting for approval %s: %s (answer it in lookout attach, or use --on-approval)\n", id, summary)
							continue
						}
						fmt.Fprintf(cmd.ErrOrStderr(), "lookout: %s approval %s: %s\n", answering(decision), id, summary)
						if decision == model.DecisionDeny {
							c.Deny(a.ApprovalID, reason)
						} else {
							c.Respond(a.ApprovalID, decision)
						}
					}
				}
				r, settled := c.Settlement(cid)
				if !settled {
					return false, nil
				}
				if err := settlementErr(r); err != nil {
					return true, err
				}
				return turnOutcome(cmd.Context(), s, c, cid, r.ItemID, &turnID, &result)
			})
			if result != "" {
				fmt.Fprintln(cmd.OutOrStdout(), termtext.Text(result))
			}
			return err
		},
	}
	f.add(cmd, true)
	cmd.Flags().StringVar(&onApproval, "on-approval", onApprovalAsk, "what to do when a tool waits for approval: ask (wait for someone to answer), approve, or deny")
	cmd.Flags().StringVar(&reason, "reason", "", "with --on-approval deny: what the agent is told to do instead")
	cmd.Flags().BoolVar(&steer, "steer", false, "send TEXT into the session's running turn, not as a new prompt (needs --session)")
	cmd.Flags().BoolVar(&newSession, "new", false, "create a new session on the host first and send to it (its id goes to stderr)")
	return cmd
}

// settlementErr is send's verdict on how its prompt left the pending
// family (docs/protocol.md, 7. Commands and pending entries): nil when it
// joined the transcript (send goes on to wait for its turn), else the
// error send exits with: 5 when the client gave up sending, 6 when the
// prompt never ran (rejected, unqueued, or its turn failed to launch).
func settlementErr(r model.Retirement) error {
	switch r.Reason {
	case model.RetiredJoined:
		return nil
	case model.RetiredGaveUp:
		return &exitError{code: exitUnreachable, err: fmt.Errorf("gave up sending the prompt: %s", r.Detail)}
	case model.RetiredRejected:
		return &exitError{code: exitTurnFailed, err: fmt.Errorf("the host rejected the prompt: %s", r.Detail)}
	case model.RetiredUnqueued:
		return &exitError{code: exitTurnFailed, err: errors.New("the prompt was unqueued before it ran")}
	case model.RetiredLaunchFailed:
		msg := "the turn failed to launch"
		if r.Detail != "" {
			msg += ": " + r.Detail
		}
		return &exitError{code: exitTurnFailed, err: errors.New(msg)}
	default:
		return &exitError{code: exitTurnFailed, err: fmt.Errorf("the turn failed to launch (%s)", r.Reason)}
	}
}

// turnOutcome decides send's end once its prompt joined the transcript
// (the userMessage itemID): done when the prompt's turn has ended, with
// the turn's agent messages in result and an *exitError for a turn that
// did not complete. The fold knows the outcome when it folded the turn's
// turn/completed. After a resynchronization it may not: a snapshot keeps
// no turn outcomes (and the userMessage may not be held). Then, once live,
// it asks the host (command/replay answers turnStatus); a host that does
// not say leaves the outcome unknown (exit 1). turnID carries the turn
// learnt from the host across calls.
func turnOutcome(parent context.Context, s sync.Picture, c *sync.Client, cid, itemID string, turnID *string, result *string) (bool, error) {
	ctx, cancel := context.WithTimeout(parent, 10*time.Second)
	defer cancel()
	var status string
	var terr *model.TurnError
	var ask bool
	if err := c.Inspect(ctx, func(st *model.State) {
		if it := st.Item(itemID); it != nil {
			*turnID = it.TurnID
		}
		if *turnID == "" {
			ask = true // the userMessage is not held: the host knows its turn
			return
		}
		if t := st.Turn(*turnID); t != nil && t.Status != "" {
			status, terr = t.Status, t.Error
			*result = turnMessages(st, *turnID)
			return
		}
		if a := st.ActiveTurn(); (a != nil && a.TurnID == *turnID) || queuedTurn(st, *turnID) {
			return // still running
		}
		ask = true // ended while the client resynchronized
	}); err != nil {
		return true, err
	}
	if ask {
		if s.Freshness.State != sync.Live {
			return false, nil // ask once caught up
		}
		ans, err := c.ReplayCommand(ctx, cid)
		if errors.Is(err, sync.ErrNotConnected) {
			return false, nil // the next connection asks again
		}
		if err != nil {
			return true, err
		}
		if *turnID == "" && ans.TurnID != "" {
			*turnID = ans.TurnID
			if ans.TurnStatus == "" {
				return false, nil // now known: the fold says whether it runs
			}
		}
		status, terr = ans.TurnStatus, ans.TurnError
		if err := c.Inspect(ctx, func(st *model.State) { *result = turnMessages(st, *turnID) }); err != nil {
			return true, err
		}
		if status == "" {
			return true, &exitError{code: exitFailure, err: errors.New("the turn ended while the client resynchronized, and the host does not say how: its final status is unknown")}
		}
	}
	if status == "" {
		return false, nil
	}
	if status != model.StatusCompleted {
		msg := "the turn ended " + status
		if terr != nil && terr.Message != "" {
			msg += ": " + terr.Message
		}
		return true, &exitError{code: exitTurnFailed, err: errors.New(msg)}
	}
	return true, nil
}

func queuedTurn(st *model.State, turnID string) bool {
	for _, q := range st.QueuedTurns() {
		if q.TurnID == turnID {
			return true
		}
	}
	return false
}

// turnMessages joins the agent messages of one turn, each with its notes
// (render.PlainNotes): an answer cut at a bound says so.
func turnMessages(st *model.State, turnID string) string {
	var parts []string
	for _, it := range st.Items() {
		if it.TurnID == turnID && it.Kind == model.KindAgentMessage && it.Text() != "" {
			parts = append(parts, it.Text()+render.PlainNotes(it))
		}
	}
	return strings.Join(parts, "\n\n")
}
