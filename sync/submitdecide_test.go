package sync

import (
	"encoding/json"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

func TestDecideSubmit(t *testing.T) {
	rpcErr := func(code int, msg, data string) *model.RPCError {
		e := &model.RPCError{Code: code, Message: msg}
		if data != "" {
			e.Data = json.RawMessage(data)
		}
		return e
	}
	tests := []struct {
		name string
		res  string
		rerr *model.RPCError
		want submitOutcome
	}{
		{"started", `{"status":"started","turnId":"t1"}`, nil, submitOutcome{verdict: submitAcked, status: "started", turnID: "t1"}},
		{"queued", `{"status":"queued","turnId":"t2"}`, nil, submitOutcome{verdict: submitAcked, status: "queued", turnID: "t2"}},
		{"no turnId", `{"status":"started"}`, nil, submitOutcome{verdict: submitRetry, why: "malformed turn/submit result", malformed: true}},
		{"unknown status", `{"status":"done","turnId":"t1"}`, nil, submitOutcome{verdict: submitRetry, why: "malformed turn/submit result", malformed: true}},
		{"not an object", `[1]`, nil, submitOutcome{verdict: submitRetry, why: "malformed turn/submit result", malformed: true}},
		{"rejected with a reason", ``, rpcErr(model.CodeRejected, "rejected", `{"reason":"the queue is full"}`), submitOutcome{verdict: submitRejected, why: "the queue is full"}},
		{"rejected without data", ``, rpcErr(model.CodeRejected, "the agent refused", ""), submitOutcome{verdict: submitRejected, why: "the agent refused"}},
		{"rejected with unreadable data", ``, rpcErr(model.CodeRejected, "refused", `"x"`), submitOutcome{verdict: submitRejected, why: "refused"}},
		{"unknown session", ``, rpcErr(model.CodeUnknownSession, "unknown session s1", ""), submitOutcome{verdict: submitSessionGone, why: "unknown session s1"}},
		{"backpressure", ``, rpcErr(model.CodeBackpressured, "busy", ""), submitOutcome{verdict: submitRetry, why: "busy"}},
		{"invalid request", ``, rpcErr(model.CodeInvalidRequest, "bad", ""), submitOutcome{verdict: submitRetry, why: "bad"}},
		{"invalid params", ``, rpcErr(model.CodeInvalidParams, "params", ""), submitOutcome{verdict: submitRetry, why: "params"}},
		{"parse error", ``, rpcErr(model.CodeParseError, "parse", ""), submitOutcome{verdict: submitRetry, why: "parse"}},
		{"internal error", ``, rpcErr(-32603, "internal", ""), submitOutcome{verdict: submitRetry, why: "internal"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := decideSubmit(json.RawMessage(tc.res), tc.rerr); got != tc.want {
				t.Errorf("decideSubmit = %+v, want %+v", got, tc.want)
			}
		})
	}
}
