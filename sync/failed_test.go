package sync

import (
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// A prompt whose turn fails to launch is published in Returned with its
// text and the reason the host gave, so that the UI can keep it visible
// as a failed entry (and give the text back); its settlement carries the
// reason too.
func TestLaunchFailureIsReturnedWithItsReason(t *testing.T) {
	h := startHost(t, host.Options{})
	sid := createSession(t, h.URL(), h.Token(), "launch")
	c := runClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid})
	waitFor(t, c.Client, "live", isLive)
	cid := c.Submit("launch fail, please")
	s := waitFor(t, c.Client, "the failed prompt in Returned", func(s Picture) bool {
		return len(s.Returned) == 1 && len(s.View.Pending) == 0
	})
	r := s.Returned[0]
	if r.CommandID != cid || r.Reason != model.RetiredLaunchFailed || r.Text != "launch fail, please" ||
		!strings.Contains(r.Detail, "asked to fail its launch") {
		t.Fatalf("returned %+v", r)
	}
	if st, ok := c.Settlement(cid); !ok || st.Detail != r.Detail {
		t.Fatalf("settlement %+v %v", st, ok)
	}
}

func TestGivesBack(t *testing.T) {
	for r, want := range map[model.RetireReason]bool{
		model.RetiredJoined: false, model.RetiredUnqueued: true, model.RetiredGaveUp: true,
		model.RetiredLaunchFailed: true, model.RetiredRejected: true,
	} {
		if GivesBack(r) != want {
			t.Errorf("GivesBack(%s) = %v", r, !want)
		}
	}
}
