package claude

import (
	"encoding/json"
	"strings"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// resultMessage is the part of Claude Code's result (one per turn) the
// turn reads.
type resultMessage struct {
	Subtype        string   `json:"subtype"`
	IsError        bool     `json:"is_error"`
	Result         string   `json:"result"`
	Errors         []string `json:"errors"`
	TerminalReason string   `json:"terminal_reason"`
	APIErrorStatus *int     `json:"api_error_status"`
}

// result ends the turn as Claude Code ended it.
func (ts *turnState) result(raw json.RawMessage) {
	var r resultMessage
	if err := json.Unmarshal(raw, &r); err != nil {
		ts.outcome.Finish(&host.TurnFailure{Code: "agentError", Message: "Claude Code ended the turn with an unreadable result: " + err.Error()})
		return
	}
	ts.stopToolsLocked()
	switch {
	case !r.IsError && (r.Subtype == "success" || r.Subtype == ""):
		ts.outcome.Finish(nil)
	case ts.ctx.Err() != nil:
		ts.outcome.Finish(ts.ctx.Err())
	case strings.HasPrefix(r.TerminalReason, "aborted"):
		ts.outcome.Finish(&host.TurnFailure{Code: "interrupted", Message: "Claude Code stopped the turn"})
	case ts.lastError != nil:
		e := ts.lastError
		ts.outcome.Finish(&host.TurnFailure{Code: errorCode(e.status, e.typ), Message: e.message})
	case r.APIErrorStatus != nil:
		ts.outcome.Finish(&host.TurnFailure{Code: errorCode(*r.APIErrorStatus, ""), Message: r.Result})
	default:
		msg := resultError(r)
		_, _ = ts.t.RecordItem(model.KindError, model.StatusFailed, map[string]any{"message": msg})
		ts.outcome.Finish(&host.TurnFailure{Code: resultCode(r.Subtype), Message: msg})
	}
}

// resultCode names a failed result for Lookout's error code.
func resultCode(subtype string) string {
	switch subtype {
	case "error_max_turns":
		return "maxTurns"
	case "error_max_budget_usd":
		return "maxBudget"
	}
	return "agentError"
}

// resultError is what a failed result says, without Claude Code's
// internal diagnostics.
func resultError(r resultMessage) string {
	var errs []string
	for _, e := range r.Errors {
		if !strings.HasPrefix(e, "[ede_diagnostic]") {
			errs = append(errs, e)
		}
	}
	switch {
	case len(errs) > 0:
		return strings.Join(errs, "; ")
	case r.Result != "":
		return r.Result
	}
	return "Claude Code ended the turn with " + r.Subtype
}
