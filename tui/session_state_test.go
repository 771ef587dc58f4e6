package tui

import (
	"testing"

	"github.com/lookout-sh/lookout/sync"
)

func TestSessionState(t *testing.T) {
	tests := []struct {
		in   sync.SessionInfo
		want string
	}{
		{sync.SessionInfo{Status: "idle"}, "idle"},
		{sync.SessionInfo{Status: "running"}, "running"},
		{sync.SessionInfo{Status: "running", Needs: "approval", PendingApprovals: 1}, "needs approval"},
		{sync.SessionInfo{Status: "running", Needs: "approval", PendingApprovals: 3}, "needs approval (3)"},
		{sync.SessionInfo{Status: "running", Needs: "approval"}, "needs approval"},
		{sync.SessionInfo{Status: "idle", Needs: "failed"}, "last turn failed"},
		{sync.SessionInfo{Status: "running", Needs: "question"}, "needs an answer"},
		{sync.SessionInfo{Status: "idle", Needs: "plan"}, "needs plan"},
		{sync.SessionInfo{Status: "idle", Needs: "x\x1b[31mred"}, "needs xred"},
		{sync.SessionInfo{Status: "id\x1b]0;t\x07le"}, "idle"},
	}
	for _, tc := range tests {
		if got := SessionState(tc.in); got != tc.want {
			t.Errorf("SessionState(%+v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
