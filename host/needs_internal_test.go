package host

import (
	"testing"

	"github.com/lookout-sh/lookout/model"
)

func TestSessionNeeds(t *testing.T) {
	failed := &model.TurnRecord{TurnID: "t1", Started: true, Status: model.StatusFailed}
	done := &model.TurnRecord{TurnID: "t1", Started: true, Status: model.StatusCompleted}
	stopped := &model.TurnRecord{TurnID: "t1", Started: true, Status: model.StatusStopped}
	tests := []struct {
		name      string
		approvals int
		busy      bool
		last      *model.TurnRecord
		want      string
	}{
		{"a new session", 0, false, nil, ""},
		{"an approval waits", 1, true, nil, needsApproval},
		{"an approval outranks an earlier failure", 2, true, failed, needsApproval},
		{"the last turn failed", 0, false, failed, needsFailed},
		{"a failure is over once a turn runs again", 0, true, failed, ""},
		{"the last turn completed", 0, false, done, ""},
		{"the last turn was stopped by its user", 0, false, stopped, ""},
		{"running", 0, true, done, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := sessionNeeds(tc.approvals, tc.busy, tc.last); got != tc.want {
				t.Errorf("sessionNeeds = %q, want %q", got, tc.want)
			}
		})
	}
}
