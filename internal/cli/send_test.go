package cli

import (
	"testing"

	"github.com/lookout-sh/lookout/model"
)

func TestSettlementErr(t *testing.T) {
	cases := []struct {
		name     string
		r        model.Retirement
		wantCode int // exitOK: no error, send waits for the turn
		wantText string
	}{
		{"joined: wait for the turn", model.Retirement{Reason: model.RetiredJoined, ItemID: "U"}, exitOK, ""},
		{"gave up sending", model.Retirement{Reason: model.RetiredGaveUp, Detail: "8 attempts"}, exitUnreachable, "gave up sending the prompt: 8 attempts"},
		{"rejected", model.Retirement{Reason: model.RetiredRejected, Detail: "queue full"}, exitTurnFailed, "the host rejected the prompt: queue full"},
		{"unqueued", model.Retirement{Reason: model.RetiredUnqueued}, exitTurnFailed, "the prompt was unqueued before it ran"},
		{"launch failed, with the host's reason", model.Retirement{Reason: model.RetiredLaunchFailed, Detail: "no such binary"}, exitTurnFailed, "the turn failed to launch: no such binary"},
		{"launch failed, no reason", model.Retirement{Reason: model.RetiredLaunchFailed}, exitTurnFailed, "the turn failed to launch"},
		{"a reason this client does not know", model.Retirement{Reason: "vanished"}, exitTurnFailed, "the turn failed to launch (vanished)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := settlementErr(c.r)
			if c.wantCode == exitOK {
				if err != nil {
					t.Fatalf("settlementErr = %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("settlementErr = nil, want exit %d", c.wantCode)
			}
			if code := exitCode(err); code != c.wantCode {
				t.Errorf("exit code %d, want %d", code, c.wantCode)
			}
			if err.Error() != c.wantText {
				t.Errorf("error %q, want %q", err, c.wantText)
			}
		})
	}
}
