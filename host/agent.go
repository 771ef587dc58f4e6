package host

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// Agent runs turns for a host. One Agent serves every session, so its
// methods must be safe for concurrent use.
type Agent interface {
	// Launch decides, before anything of the turn is emitted, whether the
	// prompt can start at all. A non-nil error is a launch failure: the host
	// emits turn/completed (failed, error code "launchFailed") with no
	// turn/started.
	Launch(prompt string) error
	// Run carries out one turn through t. It returns when the turn is over:
	// nil for a completed turn, a *TurnFailure (or any error) for a failed
	// one. ctx is cancelled when the turn is interrupted or the host shuts
	// down; Run should then return promptly. Items Run leaves open are
	// completed by the host (stopped, failed or completed, following the
	// turn's outcome), pending approvals are resolved "cancelled", and the
	// host emits turn/completed.
	Run(ctx context.Context, t *Turn) error
}

// AgentCloser is implemented by agents that hold resources beyond a turn,
// such as a child process per session. Host.Close calls Close once, after
// every turn has ended; Close must leave no process behind.
type AgentCloser interface {
	Close() error
}

// TurnFailure is the error an Agent returns to fail a turn with a given
// error code and message (turn/completed error {code, message}).
type TurnFailure struct {
	Code    string
	Message string
}

func (f *TurnFailure) Error() string { return f.Code + ": " + f.Message }

// ErrTurnOver is returned by Turn methods once the turn was interrupted or
// has ended: the agent must stop emitting.
var ErrTurnOver = errors.New("turn is over")

// ErrUnknownItem is returned by Turn methods given an item id the turn does
// not hold open.
var ErrUnknownItem = errors.New("unknown or closed item")

// Turn is the running turn as an Agent sees it: its prompt, and methods
// that emit the turn's events into its session. Every method is safe to
// call from the agent's goroutine; each returns ErrTurnOver once the turn
// was interrupted or ended, and emits nothing then.
type Turn struct {
	s   *session
	run *turnRun
}

// ID is the turn's id.
func (t *Turn) ID() string { return t.run.id }

// SessionID is the id of the session the turn runs in. Agents that keep a
// conversation of their own per session key it by this id.
func (t *Turn) SessionID() string { return t.s.id }

// CommandID is the commandId the user submitted the turn with.
func (t *Turn) CommandID() string { return t.run.cmd.id }

// Prompt is the text the user submitted.
func (t *Turn) Prompt() string { return t.run.cmd.text }

// AgentCommand names the agent command the turn runs instead of a prompt
// (one of the session's StateCommands, without its slash: "compact"), or
// is "" for a prompt. Prompt is then the line the user typed ("/compact
// focus on the tests"): an agent takes its arguments from there and never
// sends the line to the model as a prompt.
func (t *Turn) AgentCommand() string { return t.run.cmd.agent }

// History reports whether this is a scripted history turn (the host's demo
// session): agents should not pace it, and approvals are granted at once.
func (t *Turn) History() bool { return t.run.history }

// Pace sleeps for the host's configured pace (Options.Pace), or returns
// ctx's error early. History turns are not paced.
func (t *Turn) Pace(ctx context.Context) error { return t.Sleep(ctx, t.s.h.opts.Pace) }

// Sleep waits d (not for history turns), or returns ctx's error early.
func (t *Turn) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 || t.run.history {
		return ctx.Err()
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// SessionValue returns the session's latest session/state value by name
// (raw JSON), or nil.
func (t *Turn) SessionValue(name string) []byte {
	t.s.mu.Lock()
	defer t.s.mu.Unlock()
	return t.s.state.Value(name)
}

func (t *Turn) lock() error {
	t.s.mu.Lock()
	if t.run.finished || t.run.ctx.Err() != nil {
		t.s.mu.Unlock()
		return ErrTurnOver
	}
	return nil
}

// StartItem opens an item (item/started, revision 1) of kind with status
// and the given kind-specific members, and returns its id. Strings longer
// than their bound (fieldBounds: TextBound for an agent message's text
// and reasoning summary parts, FieldBound for every other string, unless
// Options.FieldBound says otherwise) are cut and listed in "truncated".
func (t *Turn) StartItem(kind, status string, fields map[string]any) (string, error) {
	if err := t.lock(); err != nil {
		return "", err
	}
	defer t.s.mu.Unlock()
	return t.s.newItemLocked(t.run, model.MethodItemStarted, kind, status, fields)
}

// RecordItem emits a single-record item: item/completed only, at revision
// 1, with a terminal status.
func (t *Turn) RecordItem(kind, status string, fields map[string]any) (string, error) {
	if err := t.lock(); err != nil {
		return "", err
	}
	defer t.s.mu.Unlock()
	return t.s.newItemLocked(t.run, model.MethodItemCompleted, kind, status, fields)
}

func (s *session) newItemLocked(run *turnRun, method, kind, status string, fields map[string]any) (string, error) {
	id := newID()
	o := newItemObject(id, kind, run.id, status, s.seq+1)
	o.apply(fields, s.h.bounds())
	if _, err := s.emitLocked(method, map[string]any{"item": o.raw()}); err != nil {
		return "", err
	}
	if method == model.MethodItemStarted {
		run.items = append(run.items, id)
	}
	if kind == model.KindError {
		run.saidError = true
	}
	return id, nil
}

// Delta appends text to a string field of an open item (item/delta; field
// "" means "text"; indexed fields are dotted, "summary.1"). A field that
// reaches its bound (as StartItem says) is cut on a UTF-8 boundary, listed
// in the item's "truncated" (an item/updated), and takes no more deltas:
// later appends to it are dropped without error.
func (t *Turn) Delta(itemID, field, text string) error {
	if field == "" {
		field = "text"
	}
	if err := t.lock(); err != nil {
		return err
	}
	defer t.s.mu.Unlock()
	s := t.s
	it := s.state.Item(itemID)
	if it == nil || !it.IsOpen() || it.TurnID != t.run.id {
		return ErrUnknownItem
	}
	if text == "" || it.Truncated(field) {
		return nil
	}
	text = strings.ToValidUTF8(text, "\uFFFD") // as JSON would send it, so the bound holds
	kept := t.run.keepDeltaText(it, field, text, s.h.bounds())
	saturated := len(kept) < len(text)
	text = kept
	if text != "" {
		if _, err := s.emitDeltaLocked(itemID, field, text); err != nil {
			return err
		}
	}
	if saturated {
		it = s.state.Item(itemID)
		o, err := nextItemObject(it.AppendJSON(nil), "")
		if err != nil {
			return err
		}
		o.addTruncated(field)
		if _, err := s.emitLocked(model.MethodItemUpdated, map[string]any{"item": o.raw()}); err != nil {
			return err
		}
	}
	return nil
}

// UpdateItem emits item/updated: the item at its next revision with status
// (unchanged when "") and the given members set (bounded).
func (t *Turn) UpdateItem(itemID, status string, fields map[string]any) error {
	if model.IsTerminalItemStatus(status) {
		return errors.New("a terminal status arrives only on item/completed: use CompleteItem")
	}
	return t.fullEvent(model.MethodItemUpdated, itemID, status, fields)
}

// CompleteItem emits item/completed: the item's final object at its next
// revision, with a terminal status and the given members set (bounded).
// Streamed text is restated in full.
func (t *Turn) CompleteItem(itemID, status string, fields map[string]any) error {
	if !model.IsTerminalItemStatus(status) {
		return errors.New("item/completed needs a terminal status")
	}
	return t.fullEvent(model.MethodItemCompleted, itemID, status, fields)
}

func (t *Turn) fullEvent(method, itemID, status string, fields map[string]any) error {
	if err := t.lock(); err != nil {
		return err
	}
	defer t.s.mu.Unlock()
	it := t.s.state.Item(itemID)
	if it == nil || !it.IsOpen() || it.TurnID != t.run.id {
		return ErrUnknownItem
	}
	o, err := nextItemObject(it.AppendJSON(nil), status)
	if err != nil {
		return err
	}
	o.apply(fields, t.s.h.bounds())
	_, err = t.s.emitLocked(method, map[string]any{"item": o.raw()})
	delete(t.run.textWire, itemID) // the object may restate the text: measured anew
	return err
}

// ApprovalRequest is what an agent asks the user to decide.
type ApprovalRequest struct {
	// ItemID is the open item the approval is about.
	ItemID string
	// Summary says, in one line, what would happen ("Run: go test ./...").
	Summary string
	// Options are the decisions offered, in order; nil means
	// model.DefaultOptions (approve and deny). Every option must be an
	// answer (model.Decision.IsAnswer).
	Options []model.Decision
}

// Answer is the user's answer to an approval.
type Answer struct {
	// Decision is one of the request's options.
	Decision model.Decision
	// Reason is what the user said to do instead, given only with a deny
	// ("" when they said nothing); at most model.MaxReasonBytes. A bridge
	// passes it to its agent the way the agent carries a rejection message.
	Reason string
}

// RequestApproval asks for approve or deny, and drops any reason; see Ask.
func (t *Turn) RequestApproval(ctx context.Context, itemID, summary string) (model.Decision, error) {
	a, err := t.Ask(ctx, ApprovalRequest{ItemID: itemID, Summary: summary})
	return a.Decision, err
}

// Ask emits approval/requested and waits for the user's answer (a
// decision among the request's options, and a deny's reason), or returns
// ctx's error. When ctx ends before an
// answer while the turn goes on, the agent has withdrawn the question: the
// approval is resolved "cancelled" at once, so no client keeps offering
// it. A history turn is approved at once.
func (t *Turn) Ask(ctx context.Context, req ApprovalRequest) (Answer, error) {
	opts := req.Options
	if len(opts) == 0 {
		opts = model.DefaultOptions
	}
	for _, o := range opts {
		if !o.IsAnswer() {
			return Answer{}, fmt.Errorf("approval option %q is not a decision the protocol knows", o)
		}
	}
	if err := t.lock(); err != nil {
		return Answer{}, err
	}
	s := t.s
	id := newID()
	_, err := s.emitLocked(model.MethodApprovalRequested, map[string]any{
		"approvalId": id, "turnId": t.run.id, "itemId": req.ItemID, "summary": req.Summary,
		"options": opts})
	if err != nil {
		s.mu.Unlock()
		return Answer{}, err
	}
	a := &approvalWait{id: id, turnID: t.run.id, options: opts, ch: make(chan Answer, 1)}
	s.approvals[id] = a
	if t.run.history {
		if err := s.resolveApprovalLocked(id, Answer{Decision: model.DecisionApprove}); err != nil {
			s.mu.Unlock()
			return Answer{}, err // the turn's end cancels the approval
		}
	}
	s.mu.Unlock()
	select {
	case ans := <-a.ch:
		return ans, nil
	case <-ctx.Done():
		s.mu.Lock()
		if _, pending := s.approvals[id]; pending && !t.run.finished {
			// A refusal is logged by emitLocked; the turn's end retries.
			_ = s.resolveApprovalLocked(id, Answer{Decision: model.DecisionCancelled})
		}
		s.mu.Unlock()
		return Answer{}, ctx.Err()
	}
}

// Warning emits a transient model-request warning (never history). The
// turn's id is filled in.
func (t *Turn) Warning(w model.Warning) error {
	if err := t.lock(); err != nil {
		return err
	}
	defer t.s.mu.Unlock()
	_, err := t.s.emitLocked(model.MethodWarning, map[string]any{
		"requestKind": w.RequestKind, "code": w.Code, "message": w.Message, "retryable": w.Retryable,
		"attempt": w.Attempt, "maxAttempts": w.MaxAttempts, "willRetry": w.WillRetry, "turnId": t.run.id})
	return err
}

// SetState emits session/state with the given values (title, status,
// model, ...).
func (t *Turn) SetState(values map[string]any) error {
	if err := t.lock(); err != nil {
		return err
	}
	defer t.s.mu.Unlock()
	return t.s.setStateLocked(values)
}
