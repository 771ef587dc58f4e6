package host

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"

	"github.com/lookout-sh/lookout/model"
)

// command is what the host remembers of one admitted commandId.
type command struct {
	id     string
	turnID string
	text   string
	agent  string // the agent command the turn runs instead of a prompt ("" for a prompt)
	first  string // the first answer's status: "started" or "queued"
	state  string // "queued", "started" or "settled"
	// settlement, once settled: kind "userMessage" (itemID), "unqueued" or
	// "launchFailed".
	kind   string
	itemID string
}

type queuedTurn struct {
	cmd     *command
	history bool // a scripted history turn: no pace, approvals granted
}

// turnRun is the active turn.
type turnRun struct {
	id          string
	cmd         *command
	ctx         context.Context
	cancel      context.CancelFunc
	interrupted bool // turn/interrupt asked for it
	shutdown    bool // the host is closing
	finished    bool // terminals emitted: the agent may emit nothing more
	history     bool
	items       []string // items this turn opened, in order
	plan        string   // the turn's plan item ("" until UpdatePlan)
	saidError   bool     // the turn holds an error item
	done        chan struct{}
	// textWire is the JSON the whole text of the turn's streaming items
	// takes, by item id (textWireUsed).
	textWire map[string]int
}

type approvalWait struct {
	id      string
	turnID  string
	options []model.Decision // the decisions offered
	ch      chan Answer
}

// errHostClosing refuses new sessions while the host shuts down.
var errHostClosing = errors.New("host is shutting down")

// submit admits a prompt (turn/submit). It is idempotent by commandId.
// agentCmd, when not "", names the agent command the turn runs instead of
// a prompt (text is then what the user typed: "/compact").
func (s *session) submit(cid, text, agentCmd string, history bool) (map[string]any, *rpcError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cmd := s.commands[cid]; cmd != nil {
		return map[string]any{"status": cmd.first, "turnId": cmd.turnID}, nil
	}
	if reason, ok := s.rejected.get(cid); ok {
		return nil, errRejected(reason, "command was rejected: "+reason)
	}
	if s.h.isClosing() {
		return nil, &rpcError{Code: model.CodeBackpressured, Message: "backpressured: the host is shutting down; retry with the same commandId"}
	}
	if err := s.h.health.err(); err != nil {
		return nil, &rpcError{Code: model.CodeBackpressured, Message: "backpressured: " + errJournalFailing.Error() + " (" + err.Error() + "); retry later with the same commandId"}
	}
	reject := func(reason, msg string) *rpcError {
		if err := s.h.j.reject(s.id, cid, reason); err != nil {
			return errJournalUnavailable(err)
		}
		if forgotten := s.rejected.add(cid, reason); len(forgotten) > 0 {
			if err := s.h.j.forget(s.id, forgotten); err != nil {
				// Remembered in the journal a little longer than in memory:
				// the next start forgets them.
				s.h.log.Warn("could not forget old rejections", "session", s.id, "err", err)
			}
		}
		return errRejected(reason, msg)
	}
	switch {
	case text == "":
		return nil, reject(rejectEmptyText, "rejected: the prompt is empty")
	case len(text) > s.h.bounds().sliced:
		return nil, reject(rejectTextTooLong, fmt.Sprintf("rejected: the prompt is longer than %d bytes", s.h.bounds().sliced))
	case agentCmd != "" && !s.offersLocked(agentCmd):
		return nil, reject(rejectCommandNotOffered, "rejected: the agent does not offer /"+agentCmd)
	}
	cmd := &command{id: cid, turnID: newID(), text: text, agent: agentCmd}
	if s.active != nil || len(s.queue) > 0 {
		if len(s.queue) >= MaxQueuedTurns {
			return nil, &rpcError{Code: model.CodeBackpressured, Message: fmt.Sprintf("backpressured: %d turns are already queued; retry later with the same commandId", len(s.queue))}
		}
		queued := map[string]any{"turnId": cmd.turnID, "commandId": cid, "text": text, "position": len(s.queue) + 1}
		if agentCmd != "" {
			queued["agentCommand"] = agentCmd
		}
		_, err := s.emitLocked(model.MethodTurnQueued, queued)
		if err != nil {
			return nil, errJournalUnavailable(err)
		}
		cmd.first, cmd.state = "queued", "queued"
		s.remember(cmd)
		s.queue = append(s.queue, &queuedTurn{cmd: cmd, history: history})
		return map[string]any{"status": "queued", "turnId": cmd.turnID}, nil
	}
	cmd.first = "started"
	if err := s.launchLocked(&queuedTurn{cmd: cmd, history: history}); err != nil {
		return nil, errJournalUnavailable(err)
	}
	return map[string]any{"status": "started", "turnId": cmd.turnID}, nil
}

func (s *session) remember(cmd *command) {
	s.commands[cmd.id] = cmd
	s.byTurn[cmd.turnID] = cmd
}

// launchLocked starts a turn: turn/started, its userMessage, then the agent
// on its own goroutine. A launch the agent refuses is a failed
// turn/completed with no turn/started. An error means the journal refused
// the first event and nothing was admitted.
func (s *session) launchLocked(qt *queuedTurn) error {
	cmd := qt.cmd
	if err := s.h.agent.Launch(cmd.text); err != nil {
		_, jerr := s.emitLocked(model.MethodTurnCompleted, map[string]any{
			"turnId": cmd.turnID, "status": model.StatusFailed,
			"error": map[string]string{"code": turnErrLaunchFailed, "message": err.Error()}})
		if jerr != nil {
			return jerr
		}
		s.remember(cmd)
		cmd.state, cmd.kind = "settled", "launchFailed"
		return nil
	}
	if _, err := s.emitLocked(model.MethodTurnStarted, map[string]any{
		"turnId": cmd.turnID, "startedAt": nowRFC3339(), "commandId": cmd.id}); err != nil {
		return err
	}
	s.remember(cmd)
	cmd.state = "started"
	ctx, cancel := context.WithCancel(context.Background())
	run := &turnRun{id: cmd.turnID, cmd: cmd, ctx: ctx, cancel: cancel, history: qt.history, done: make(chan struct{})}
	s.active = run
	itemID := newID()
	o := newItemObject(itemID, model.KindUserMessage, cmd.turnID, model.StatusCompleted, s.seq+1)
	user := map[string]any{"text": cmd.text, "commandId": cmd.id}
	if cmd.agent != "" {
		user["agentCommand"] = cmd.agent
	}
	o.apply(user, s.h.bounds())
	if _, err := s.emitLocked(model.MethodItemCompleted, map[string]any{"item": o.raw()}); err == nil {
		cmd.state, cmd.kind, cmd.itemID = "settled", "userMessage", itemID
	}
	s.h.wg.Add(1)
	go s.runTurn(run)
	return nil
}

// runTurn runs the agent for the active turn, then emits its terminals and
// starts the next queued turn.
func (s *session) runTurn(run *turnRun) {
	defer s.h.wg.Done()
	defer close(run.done)
	err := s.callAgent(run)
	s.mu.Lock()
	s.finishTurnLocked(run, err)
	s.startNextLocked()
	quiet := s.active == nil && len(s.queue) == 0
	s.mu.Unlock()
	if quiet && !s.h.isClosing() {
		s.recordQuiet()
	}
}

func (s *session) callAgent(run *turnRun) (err error) {
	defer func() {
		if r := recover(); r != nil {
			s.h.log.Error("agent panicked", "session", s.id, "turn", run.id, "panic", r, "stack", string(debug.Stack()))
			err = &TurnFailure{Code: turnErrAgentPanic, Message: fmt.Sprint("the agent crashed: ", r)}
		}
	}()
	return s.h.agent.Run(run.ctx, &Turn{s: s, run: run})
}

// finishTurnLocked emits the terminals of a turn: every item it left open,
// every approval still pending, then turn/completed.
func (s *session) finishTurnLocked(run *turnRun, err error) {
	if run.finished {
		return
	}
	run.finished = true
	run.cancel()
	if s.deposed {
		// The new writer ends the turn from the journal (host death).
		if s.active == run {
			s.active = nil
		}
		return
	}
	status, itemStatus := model.StatusCompleted, model.StatusCompleted
	var terr map[string]string
	var tf *TurnFailure
	switch {
	case run.interrupted || run.shutdown:
		status, itemStatus = model.StatusStopped, model.StatusStopped
		if run.shutdown {
			terr = map[string]string{"code": turnErrHostShutdown, "message": "the host was shut down while this turn was running"}
		}
	case errors.As(err, &tf):
		status, itemStatus = model.StatusFailed, model.StatusFailed
		terr = map[string]string{"code": tf.Code, "message": tf.Message}
	case err != nil:
		status, itemStatus = model.StatusFailed, model.StatusFailed
		terr = map[string]string{"code": turnErrAgentError, "message": err.Error()}
	}
	s.cancelQuestionsLocked(run.id)
	for _, id := range run.items {
		if _, open := s.open[id]; open {
			if err := s.completeItemLocked(id, itemStatus, nil); err != nil {
				s.h.log.Error("could not end an item with its turn", "session", s.id, "item", id, "err", err)
			}
		}
	}
	s.cancelApprovalsLocked(run.id)
	if status == model.StatusFailed && !run.saidError {
		s.recordFailureLocked(run, terr)
	}
	fields := map[string]any{"turnId": run.id, "status": status}
	if terr != nil {
		fields["error"] = terr
	}
	if _, err := s.emitLocked(model.MethodTurnCompleted, fields); err != nil {
		s.h.log.Error("could not end a turn", "session", s.id, "turn", run.id, "err", err)
	}
	if s.active == run {
		s.active = nil
	}
}

// recordFailureLocked puts why a turn failed into its transcript, as an
// error item with the failure's message and code, for a turn whose agent
// recorded no error item of its own: the reason is then history (paged,
// exported), not only the turn's terminal.
func (s *session) recordFailureLocked(run *turnRun, terr map[string]string) {
	fields := map[string]any{"message": terr["message"], "code": terr["code"]}
	if _, err := s.newItemLocked(run, model.MethodItemCompleted, model.KindError, model.StatusFailed, fields); err != nil {
		s.h.log.Error("could not record why a turn failed", "session", s.id, "turn", run.id, "err", err)
	}
}

// completeItemLocked emits item/completed for an open item at its next
// revision, restating everything streamed so far.
func (s *session) completeItemLocked(id, status string, fields map[string]any) error {
	it := s.state.Item(id)
	if it == nil {
		return fmt.Errorf("unknown item %s", id)
	}
	o, err := nextItemObject(it.AppendJSON(nil), status)
	if err != nil {
		return err
	}
	o.apply(fields, s.h.bounds())
	_, err = s.emitLocked(model.MethodItemCompleted, map[string]any{"item": o.raw()})
	return err
}

func (s *session) cancelApprovalsLocked(turnID string) {
	var ids []string
	for id, a := range s.approvals {
		if a.turnID == turnID {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		if err := s.resolveApprovalLocked(id, Answer{Decision: model.DecisionCancelled}); err != nil {
			s.h.log.Error("could not cancel an approval", "session", s.id, "approval", id, "err", err)
		}
	}
}

// resolveApprovalLocked emits approval/resolved (with a deny's reason,
// when there is one) and hands the answer to the agent waiting for it.
func (s *session) resolveApprovalLocked(id string, ans Answer) error {
	params := map[string]any{"approvalId": id, "decision": ans.Decision}
	if ans.Reason != "" {
		params["reason"] = ans.Reason
	}
	if _, err := s.emitLocked(model.MethodApprovalResolved, params); err != nil {
		return err
	}
	if a := s.approvals[id]; a != nil {
		delete(s.approvals, id)
		a.ch <- ans
	}
	s.resolved[id] = ans.Decision
	return nil
}

// startNextLocked launches queued turns while the session is idle.
func (s *session) startNextLocked() {
	for s.active == nil && len(s.queue) > 0 && !s.h.isClosing() && !s.deposed {
		qt := s.queue[0]
		s.queue = s.queue[1:]
		if err := s.launchLocked(qt); err != nil {
			// The journal refused turn/started: keep the turn queued and
			// try again on the next turn end or restart.
			s.queue = append([]*queuedTurn{qt}, s.queue...)
			s.h.log.Error("launching a queued turn failed", "session", s.id, "turn", qt.cmd.turnID, "err", err)
			return
		}
	}
}
