package tui

import (
	"fmt"

	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
)

// SessionState is a session's state as the picker and `lookout sessions`
// show it: what waits for the user when something does, else the host's
// status. One clean line of a few words.
func SessionState(s sync.SessionInfo) string {
	switch s.Needs {
	case "":
		return termtext.Line(s.Status)
	case "approval":
		if s.PendingApprovals > 1 {
			return fmt.Sprintf("needs approval (%d)", s.PendingApprovals)
		}
		return "needs approval"
	case "question":
		return "needs an answer"
	case "failed":
		return "last turn failed"
	}
	return "needs " + termtext.Line(s.Needs) // a reason of a newer host
}
