package sync

import (
	"context"
	"errors"
	"net"
	"testing"

	"github.com/lookout-sh/lookout/host"
)

// Follow ends nil when done says so, and with a *FollowEnded naming the
// final state when the client cannot go on; each sees every picture done
// saw, and the last one once more after the client stopped.
func TestFollow(t *testing.T) {
	h := startHost(t, host.Options{})
	sid := createSession(t, h.URL(), h.Token(), "followed")
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	unreachable := "ws://" + closed.Addr().String() + "/v1/ws"
	_ = closed.Close()

	cases := []struct {
		name           string
		o              Options
		wantEnded      bool
		neverConnected bool
		reason         string
	}{
		{name: "done when live", o: Options{URL: h.URL(), Token: h.Token(), SessionID: sid}},
		{name: "bad token", o: Options{URL: h.URL(), Token: "not-the-token", SessionID: sid}, wantEnded: true, reason: ReasonAuth},
		{name: "unknown session", o: Options{URL: h.URL(), Token: h.Token(), SessionID: "no-such-session"}, wantEnded: true, reason: ReasonNoSession},
		{name: "never connected", o: Options{URL: unreachable, Token: "t", SessionID: sid}, wantEnded: true, neverConnected: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.CacheDir = "-"
			c, err := New(tc.o)
			if err != nil {
				t.Fatal(err)
			}
			var seen, asked int
			var finished bool
			err = Follow(context.Background(), c, func(Picture) { seen++ }, func(s Picture, _ *Client) (bool, error) {
				asked++
				finished = isLive(s)
				return finished, nil
			})
			var ended *FollowEnded
			if got := errors.As(err, &ended); got != tc.wantEnded {
				t.Fatalf("Follow = %v, want a *FollowEnded: %v", err, tc.wantEnded)
			}
			if tc.wantEnded {
				if ended.NeverConnected != tc.neverConnected || (tc.reason != "" && ended.Freshness.Reason != tc.reason) || ended.Error() == "" {
					t.Fatalf("ended %+v (%q), want never connected %v, reason %q", ended, ended.Error(), tc.neverConnected, tc.reason)
				}
			} else if err != nil || !finished {
				t.Fatalf("Follow = %v before done said it was finished", err)
			}
			// each saw what done saw (unless Follow ended first), plus the final picture.
			if seen < asked+1 {
				t.Fatalf("each saw %d pictures, done was asked %d times", seen, asked)
			}
		})
	}
}

// Follow returns nil when its context ends, and leaves no client running.
func TestFollowEndsWithItsContext(t *testing.T) {
	h := startHost(t, host.Options{})
	sid := createSession(t, h.URL(), h.Token(), "followed")
	c, err := New(Options{URL: h.URL(), Token: h.Token(), SessionID: sid, CacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	err = Follow(ctx, c, nil, func(s Picture, _ *Client) (bool, error) {
		if isLive(s) {
			cancel()
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("Follow after its context ended = %v, want nil", err)
	}
}
