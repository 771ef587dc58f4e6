package bridge

import (
	"context"
	"errors"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// StateTitle is the session value that names a session (a bridge's own,
// or the agent's once it has named it).
const StateTitle = "title"

// DefaultTitle names the session after its prompt (Title) unless it has a
// title already: a session's first turn, before the agent names it.
func DefaultTitle(sess host.Session, prompt string) {
	if len(sess.Value(StateTitle)) == 0 {
		_ = sess.SetState(map[string]any{StateTitle: Title(prompt)})
	}
}

// StartFailure is what a bridge's Run returns when it could not get the
// session's agent ready for the turn (start its child, reach its server,
// open its conversation): the turn's own end when it was interrupted
// meanwhile, else a failure agentStartFailed saying why.
func StartFailure(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return &host.TurnFailure{Code: "agentStartFailed", Message: err.Error()}
}

// NotShown reports an agent message a turn could not fold as a warning
// (malformedAgentOutput): "Lookout could not show " + what + ": " + err,
// what naming the message ("Codex's item/started"). A turn that has ended
// (host.ErrTurnOver) says nothing: its end is reported on its own path.
func NotShown(t *host.Turn, what string, err error) {
	if errors.Is(err, host.ErrTurnOver) {
		return
	}
	_ = t.Warning(model.Warning{RequestKind: "agent", Code: "malformedAgentOutput",
		Message: "Lookout could not show " + what + ": " + err.Error()})
}

// A TurnDriver is a bridge's side of one running turn: how its agent's
// protocol hands over the prompt and asks for a stop. RunTurn does the
// rest.
type TurnDriver interface {
	// Send hands the turn's prompt to the agent, which then works on it
	// and ends the turn by reporting the turn's Outcome. It is not cut
	// short by an early interrupt, so that the agent's turn is known and
	// can be stopped.
	Send() error
	// Refused is the turn's failure when Send failed with err, and how
	// long to wait first for the turn's outcome, which says more when it
	// comes (the child died: the write failed because of it).
	Refused(err error) (wait time.Duration, failure error)
	// Interrupt asks the agent to end the turn; ctx ends with the
	// interrupt's grace period.
	Interrupt(ctx context.Context)
	// Overdue is called when the agent did not end an interrupted turn
	// within the grace period: kill its child, or say so.
	Overdue()
}

// TurnOptions tune RunTurn.
type TurnOptions struct {
	// Grace is how long an interrupted turn waits for the agent to end it
	// before Overdue.
	Grace time.Duration
	// Within, when set, also bounds the interrupt (the shared server's
	// life): the wait ends when it does.
	Within context.Context
}

// RunTurn is the skeleton every bridge's turn runs once its turn state is
// in the session's slot: send the prompt (d.Send), then wait for the
// turn's outcome o, which the agent's end of the turn or the child's
// death reports. Cancelling ctx (the user's interrupt, the host closing)
// interrupts the agent's turn (d.Interrupt) and waits up to the grace
// period for it to end, calling d.Overdue if it does not; the turn then
// returns ctx's error. A failed Send waits d.Refused's time for the
// outcome, and returns it, else ctx's error when interrupted, else
// d.Refused's failure.
func RunTurn(ctx context.Context, o *Outcome, d TurnDriver, opts TurnOptions) error {
	if err := d.Send(); err != nil {
		wait, failure := d.Refused(err)
		if o.endsWithin(wait) {
			return o.Err()
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return failure
	}
	select {
	case <-o.Done():
		return o.Err()
	case <-ctx.Done():
	}
	within := opts.Within
	if within == nil {
		within = context.Background()
	}
	ictx, cancel := context.WithTimeout(within, opts.Grace)
	defer cancel()
	d.Interrupt(ictx)
	if !o.EndsBefore(ictx) {
		d.Overdue()
	}
	return ctx.Err()
}

// endsWithin reports whether the outcome is known within d (at once when
// d is not positive).
func (o *Outcome) endsWithin(d time.Duration) bool {
	if d <= 0 {
		return o.Finished()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-o.done:
		return true
	case <-t.C:
		return false
	}
}
