package cli

import (
	"testing"

	"github.com/lookout-sh/lookout/sync"
)

// A client that cannot go on exits with the code its final state names,
// and says why in the host's words.
func TestFollowExit(t *testing.T) {
	cases := []struct {
		name  string
		ended sync.FollowEnded
		code  int
	}{
		{"never connected", sync.FollowEnded{NeverConnected: true, Freshness: sync.Freshness{State: sync.Reconnecting, Err: "dial: refused"}}, exitUnreachable},
		{"token refused", sync.FollowEnded{Freshness: sync.Freshness{State: sync.Error, Reason: sync.ReasonAuth, Err: "401"}}, exitAuth},
		{"unknown session", sync.FollowEnded{Freshness: sync.Freshness{State: sync.Error, Reason: sync.ReasonNoSession, Err: "no such session"}}, exitNoSession},
		{"unreachable for good", sync.FollowEnded{Freshness: sync.Freshness{State: sync.Error, Reason: sync.ReasonUnreachable, Err: "gave up"}}, exitUnreachable},
		{"not a Lookout endpoint", sync.FollowEnded{Freshness: sync.Freshness{State: sync.Error, Reason: sync.ReasonEndpoint, Err: "404"}}, exitUnreachable},
		{"any other refusal", sync.FollowEnded{Freshness: sync.Freshness{State: sync.Error, Err: "malformed result"}}, exitFailure},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := followExit(&tc.ended)
			if got := exitCode(err); got != tc.code {
				t.Fatalf("exit code %d, want %d", got, tc.code)
			}
			if err.Error() != tc.ended.Freshness.Err {
				t.Fatalf("message %q, want the client's %q", err.Error(), tc.ended.Freshness.Err)
			}
		})
	}
}
