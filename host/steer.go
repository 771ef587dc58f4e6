package host

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// Steerer is implemented by agents that take the user's input into a
// running turn (Codex's turn/steer). Steer hands text to the agent for the
// running turn t; nil means the agent took it. It returns
// ErrSteerUnsupported when it cannot steer t at all.
type Steerer interface {
	Steer(ctx context.Context, t *Turn, text string) error
}

// ErrSteerUnsupported: the agent cannot take input into this turn.
var ErrSteerUnsupported = errors.New("the agent cannot take input into a running turn")

// steerTimeout bounds an agent's Steer.
const steerTimeout = 15 * time.Second

// Rejection reasons of turn/steer (data.reason of -32010).
const (
	rejectNoActiveTurn      = "noActiveTurn"      // no turn runs: submit instead
	rejectSteerNotSupported = "steerNotSupported" // the agent takes no input mid-turn
	rejectSteerRefused      = "steerRefused"      // the agent refused this input
)

// steerResult is turn/steer's answer: the turn steered and the
// userMessage item that shows the input in it.
type steerResult struct {
	TurnID string `json:"turnId"`
	ItemID string `json:"itemId"`
}

// steerWait is a steer in flight, which a repeat of its commandId waits on.
type steerWait struct {
	done chan struct{}
	res  steerResult
	err  *rpcError
}

// steer hands text into the running turn (turn/steer) and shows it there
// as a userMessage item marked steered. A commandId steers at most once:
// a repeat gets the first answer (while the first is in flight, once it
// is over).
func (s *session) steer(commandID, text string) (steerResult, *rpcError) {
	s.mu.Lock()
	if res, ok := s.steeredLocked(commandID); ok {
		s.mu.Unlock()
		return res, nil
	}
	if w := s.steering[commandID]; w != nil {
		s.mu.Unlock()
		<-w.done
		return w.res, w.err
	}
	switch {
	case text == "":
		s.mu.Unlock()
		return steerResult{}, errRejected(rejectEmptyText, "rejected: the text is empty")
	case len(text) > s.h.bounds().sliced:
		s.mu.Unlock()
		return steerResult{}, errRejected(rejectTextTooLong, fmt.Sprintf("rejected: the text is longer than %d bytes", s.h.bounds().sliced))
	}
	run := s.active
	if run == nil || run.finished || run.interrupted || run.history {
		s.mu.Unlock()
		return steerResult{}, errRejected(rejectNoActiveTurn, "rejected: no turn is running; submit the text as a prompt")
	}
	st, ok := s.h.agent.(Steerer)
	if !ok {
		s.mu.Unlock()
		return steerResult{}, errRejected(rejectSteerNotSupported, "rejected: "+agentName(s.h)+" cannot take input into a running turn")
	}
	w := &steerWait{done: make(chan struct{})}
	s.steering[commandID] = w
	s.mu.Unlock()

	w.res, w.err = s.steerRun(st, run, commandID, text)
	s.mu.Lock()
	delete(s.steering, commandID)
	if w.err == nil {
		s.steered[commandID] = w.res
	}
	s.mu.Unlock()
	close(w.done)
	return w.res, w.err
}

// steerRun shows text in run as a userMessage marked steered, asks the
// agent to take it, and completes the item as it went: completed, or
// failed with why (the transcript shows where the input landed and
// whether it reached the agent).
func (s *session) steerRun(st Steerer, run *turnRun, commandID, text string) (steerResult, *rpcError) {
	t := &Turn{s: s, run: run}
	id, err := t.StartItem(model.KindUserMessage, model.StatusInProgress, map[string]any{"text": text, "steered": true, "steerCommandId": commandID})
	if err != nil {
		return steerResult{}, errRejected(rejectNoActiveTurn, "rejected: the turn ended; submit the text as a prompt")
	}
	ctx, cancel := context.WithTimeout(run.ctx, steerTimeout)
	err = st.Steer(ctx, t, text)
	cancel()
	var rerr *rpcError
	switch {
	case err == nil:
	case errors.Is(err, ErrSteerUnsupported):
		rerr = errRejected(rejectSteerNotSupported, "rejected: "+err.Error())
	case errors.Is(err, ErrTurnOver) || run.ctx.Err() != nil:
		rerr = errRejected(rejectNoActiveTurn, "rejected: the turn ended before the agent took the text; submit it as a prompt")
	default:
		rerr = errRejected(rejectSteerRefused, "rejected: the agent did not take the text: "+err.Error())
	}
	if rerr != nil {
		_ = t.CompleteItem(id, model.StatusFailed, map[string]any{"error": map[string]any{"message": "not delivered: " + err.Error()}})
		return steerResult{}, rerr
	}
	if err := t.CompleteItem(id, model.StatusCompleted, nil); err != nil {
		s.h.log.Warn("a steer reached the agent but its item could not be completed", "session", s.id, "err", err)
	}
	return steerResult{TurnID: run.id, ItemID: id}, nil
}

// steeredLocked finds the answer of a steer already made with commandID:
// this process's record, else the steered userMessage the fold holds
// (after a restart).
func (s *session) steeredLocked(commandID string) (steerResult, bool) {
	if res, ok := s.steered[commandID]; ok {
		return res, true
	}
	items := s.state.Items()
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		if it.Kind == model.KindUserMessage && it.Steered() && it.Status == model.StatusCompleted && it.String("steerCommandId") == commandID {
			return steerResult{TurnID: it.TurnID, ItemID: it.ID}, true
		}
	}
	return steerResult{}, false
}

// steers reports whether agent takes input into running turns, for
// initialize's features.steer.
func steers(agent Agent) bool {
	_, ok := agent.(Steerer)
	return ok
}
