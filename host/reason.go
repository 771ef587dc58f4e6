package host

import (
	"fmt"

	"github.com/lookout-sh/lookout/model"
)

// checkReason refuses an approval answer whose reason the protocol does
// not allow: one longer than model.MaxReasonBytes, or one given with a
// decision other than deny. Both are -32602 with data.reason naming the
// cause and, for a long one, data.maxBytes the bound.
func checkReason(ans Answer) *rpcError {
	if n := len(ans.Reason); n > model.MaxReasonBytes {
		return &rpcError{Code: model.CodeInvalidParams,
			Message: fmt.Sprintf("invalid params: reason is %d bytes, at most %d", n, model.MaxReasonBytes),
			Data:    map[string]any{"reason": reasonReasonTooLong, "maxBytes": model.MaxReasonBytes}}
	}
	if !model.ReasonAllowed(ans.Decision, ans.Reason) {
		return &rpcError{Code: model.CodeInvalidParams,
			Message: fmt.Sprintf("invalid params: only deny carries a reason, not %q", ans.Decision),
			Data:    map[string]any{"reason": reasonReasonNotDeny}}
	}
	return nil
}
