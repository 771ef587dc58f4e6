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
		questions int
		busy      bool
		last      *model.TurnRecord
		want      string
	}{
		{"a new session", 0, 0, false, nil, ""},
		{"an approval waits", 1, 0, true, nil, needsApproval},
		{"an approval outranks an earlier failure", 2, 0, true, failed, needsApproval},
		{"the last turn failed", 0, 0, false, failed, needsFailed},
		{"a failure is over once a turn runs again", 0, 0, true, failed, ""},
		{"the last turn completed", 0, 0, false, done, ""},
		{"the last turn was stopped by its user", 0, 0, false, stopped, ""},
		{"running", 0, 0, true, done, ""},
		{"a question waits while its turn runs", 0, 1, true, done, needsQuestion},
		{"an approval outranks a question", 1, 2, true, nil, needsApproval},
		{"a question outranks an earlier failure", 0, 1, true, failed, needsQuestion},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := sessionNeeds(tc.approvals, tc.questions, tc.busy, tc.last); got != tc.want {
				t.Errorf("sessionNeeds = %q, want %q", got, tc.want)
			}
		})
	}
}
