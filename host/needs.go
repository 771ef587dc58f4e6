package host

import "github.com/lookout-sh/lookout/model"

// Why a session waits for its user, as session/list says it ("needs").
const (
	needsApproval = "approval" // an approval waits for an answer
	needsQuestion = "question" // the agent's question waits for an answer
	needsFailed   = "failed"   // its last turn failed, and nothing runs since
)

// sessionNeeds decides a session's "needs" from its fold: an approval
// waiting comes first, then a question; else a last turn that failed,
// until another turn runs or waits; else nothing (""). busy is whether a
// turn runs or is queued.
func sessionNeeds(approvals, questions int, busy bool, last *model.TurnRecord) string {
	switch {
	case approvals > 0:
		return needsApproval
	case questions > 0:
		return needsQuestion
	case busy:
		return ""
	case last != nil && last.Status == model.StatusFailed:
		return needsFailed
	}
	return ""
}
