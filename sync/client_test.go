package sync

import (
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

func TestLiveSessionFoldsLikeTheHost(t *testing.T) {
	h := startHost(t, host.Options{DemoSession: true})
	sid := h.DefaultSessionID()
	c := runClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid, Deltas: true})
	s := waitFor(t, c.Client, "live", isLive)
	if s.Durability != "durable" || len(s.View.Items) == 0 {
		t.Fatalf("durability %q, %d items", s.Durability, len(s.View.Items))
	}
	cid := c.Submit("hello there, run a tool")
	waitFor(t, c.Client, "pending entry", func(s Picture) bool {
		return len(s.View.Pending) == 1 && s.View.Pending[0].CommandID == cid
	})
	// The tool scenario asks for an approval: approve it.
	s = waitFor(t, c.Client, "approval", func(s Picture) bool { return len(s.View.Approvals) == 1 })
	c.Respond(s.View.Approvals[0].ApprovalID, "approve")
	s = waitFor(t, c.Client, "idle", idle)
	checkTranscript(t, s.View)
	if n := userMessages(s.View)[cid]; n != 1 {
		t.Fatalf("prompt folded %d times", n)
	}
	if r, ok := c.Settlement(cid); !ok || r.Reason != model.RetiredJoined {
		t.Fatalf("settlement %+v %v", r, ok)
	}
	sameAsHost(t, c.Client, h.URL(), h.Token(), sid)
}
