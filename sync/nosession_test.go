package sync

import (
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// A session the host does not know is a final state: the client says so
// (error, reason no-session, no next attempt), stops retrying in the
// background, and nothing pretends to be sending: a prompt submitted
// before or after gives its text back at once. A user retry still asks.
func TestUnknownSessionIsFinal(t *testing.T) {
	h := startHost(t, host.Options{})
	p := newFaultProxy(t, h.Addr(), 7)
	c := fastClient(t, Options{URL: p.URL(), Token: h.Token(), SessionID: "no-such-session"})
	early := c.Submit("typed before the answer")
	s := waitFor(t, c.Client, "the unknown session", func(s Picture) bool {
		return s.Freshness.State == Error && s.Freshness.Reason == ReasonNoSession
	})
	if !s.Freshness.NextAttempt.IsZero() {
		t.Fatalf("a background retry is scheduled for a session that does not exist: %+v", s.Freshness)
	}
	late := c.Submit("typed after")
	s = waitFor(t, c.Client, "both prompts given back", func(s Picture) bool {
		return len(s.View.Pending) == 0 && len(s.Returned) == 2
	})
	for i, cid := range []string{early, late} {
		r, ok := c.Settlement(cid)
		if !ok || r.Reason != model.RetiredGaveUp || s.Returned[i].CommandID != cid || r.Detail == "" {
			t.Fatalf("prompt %d settled %+v %v; returned %+v", i, r, ok, s.Returned)
		}
	}
	accepted := p.Accepted()
	time.Sleep(700 * time.Millisecond) // the fast client's backoff tops out at 600 ms
	if p.Accepted() != accepted {
		t.Fatalf("the client kept retrying: %d connections, then %d", accepted, p.Accepted())
	}
	if f := c.Current().Freshness; f.State != Error || f.Reason != ReasonNoSession {
		t.Fatalf("freshness %+v", f)
	}
	c.Retry()
	waitFor(t, c.Client, "the user's retry asks again", func(Picture) bool { return p.Accepted() > accepted })
	waitFor(t, c.Client, "and lands on the same final state", func(s Picture) bool {
		return s.Freshness.State == Error && s.Freshness.Reason == ReasonNoSession && s.Freshness.NextAttempt.IsZero()
	})
}
