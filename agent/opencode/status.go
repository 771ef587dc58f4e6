package opencode

import (
	"context"
	"encoding/json"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// status folds session.status: a retry is a warning; idle ends the turn.
func (ts *turnState) status(props json.RawMessage) error {
	var p struct {
		Status struct {
			Type    string `json:"type"`
			Attempt int    `json:"attempt"`
			Message string `json:"message"`
		} `json:"status"`
	}
	if err := json.Unmarshal(props, &p); err != nil {
		return err
	}
	if ts.userMsg != "" && p.Status.Type != "idle" {
		ts.busy = true
	}
	switch p.Status.Type {
	case "retry":
		if ts.userMsg == "" {
			return nil
		}
		// OpenCode drops the failed attempt's parts: end the streamed ones
		// stopped, so they never read as an answer.
		ts.stopStreamedLocked()
		msg := p.Status.Message
		if msg == "" {
			msg = "the model request failed"
		}
		return ts.t.Warning(model.Warning{RequestKind: "model", Code: "modelRetry",
			Message: "OpenCode retries the model request: " + msg, Retryable: true, Attempt: p.Status.Attempt, WillRetry: true})
	case "idle":
		ts.idleLocked()
	}
	return nil
}

// idleLocked ends an armed turn as OpenCode ended it.
func (ts *turnState) idleLocked() {
	if ts.userMsg == "" {
		if ts.early != nil {
			// OpenCode refused the prompt before making a message of it.
			ts.outcome.Finish(&host.TurnFailure{Code: errorCode(ts.early.Name), Message: ts.early.text()})
		}
		return
	}
	if !ts.busy {
		// A previous turn's late idle, or OpenCode stored the prompt
		// without running it: make sure it is not the latter.
		if !ts.checking {
			ts.checking = true
			time.AfterFunc(startCheckDelay, ts.checkStarted)
		}
		return
	}
	switch {
	case ts.aborted:
		if err := ts.ctx.Err(); err != nil {
			ts.outcome.Finish(err)
			return
		}
		ts.outcome.Finish(&host.TurnFailure{Code: "interrupted", Message: "OpenCode aborted the turn"})
	case ts.lastErr != nil:
		ts.outcome.Finish(&host.TurnFailure{Code: errorCode(ts.lastErr.Name), Message: ts.lastErr.text()})
	default:
		ts.outcome.Finish(nil)
	}
}

// startCheckDelay is how long after an idle that found the turn not
// started the bridge looks whether OpenCode is running it at all.
var startCheckDelay = 3 * time.Second

// checkStarted fails a turn OpenCode never started (its prompt is stored
// but the session stayed idle), rather than wait for it forever.
func (ts *turnState) checkStarted() {
	ts.mu.Lock()
	pending := !ts.outcome.Finished() && !ts.busy
	ts.mu.Unlock()
	if !pending {
		return
	}
	ctx, cancel := context.WithTimeout(ts.srv.ctx, 10*time.Second)
	defer cancel()
	var busy map[string]json.RawMessage
	if err := ts.srv.c.do(ctx, "GET", "/session/status", ts.s.directory(), nil, &busy); err != nil {
		return
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if _, running := busy[ts.s.openCodeID()]; !running && !ts.busy {
		ts.outcome.Finish(&host.TurnFailure{Code: "agentError", Message: "OpenCode took the prompt but did not start working on it; send it again"})
	}
}

// sessionError folds session.error: an abort marks the turn interrupted;
// any other error is an error item and names the turn's failure.
func (ts *turnState) sessionError(props json.RawMessage) error {
	var p struct {
		Error *ocError `json:"error"`
	}
	if err := json.Unmarshal(props, &p); err != nil {
		return err
	}
	if p.Error == nil {
		return nil
	}
	if ts.userMsg == "" {
		ts.early = p.Error
		return nil
	}
	ts.busy = true
	if p.Error.Name == "MessageAbortedError" {
		ts.aborted = true
		return nil
	}
	ts.lastErr = p.Error
	_, err := ts.t.RecordItem(model.KindError, model.StatusFailed, map[string]any{"message": p.Error.text()})
	return err
}
