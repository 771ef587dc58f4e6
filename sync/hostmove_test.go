package sync

import (
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
)

func TestHostMoved(t *testing.T) {
	cases := []struct {
		dialled, recorded string
		want              bool
	}{
		{"ws://127.0.0.1:4000/v1/ws", "ws://127.0.0.1:5000/v1/ws", true},
		{"ws://127.0.0.1:4000/v1/ws", "ws://127.0.0.1:4000/v1/ws", false},
		{"ws://127.0.0.1:4000/v1/ws", "127.0.0.1:4000", false}, // one host, two spellings
		{"ws://127.0.0.1:4000/v1/ws", "", false},               // gone, or not written yet
		{"ws://127.0.0.1:4000/v1/ws", "ws://[::1", false},      // unreadable: stay
	}
	for _, c := range cases {
		if got := hostMoved(c.dialled, c.recorded); got != c.want {
			t.Errorf("hostMoved(%q, %q) = %v, want %v", c.dialled, c.recorded, got, c.want)
		}
	}
}

// TestClientFollowsTheLocalHostToItsNewAddress: the host on a data
// directory stops and another starts there on a new port (another
// `lookout` window took it over). A client with FollowLocalHost follows
// it, and a prompt submitted while no host ran is answered once.
func TestClientFollowsTheLocalHostToItsNewAddress(t *testing.T) {
	dir := t.TempDir()
	h := startHost(t, host.Options{DataDir: dir, Pace: 5 * time.Millisecond})
	sid := createSession(t, h.URL(), h.Token(), "moving")
	c := fastClient(t, Options{URL: h.URL(), DataDir: dir, HostsFile: "-", SessionID: sid, FollowLocalHost: true})
	waitFor(t, c.Client, "live", isLive)
	first := c.Submit("before the move")
	waitFor(t, c.Client, "first answer", func(s Picture) bool { return idle(s) && userMessages(s.View)[first] == 1 })

	was := h.URL()
	h.Close()
	waitFor(t, c.Client, "reconnecting", func(s Picture) bool { return s.Freshness.State == Reconnecting })
	second := c.Submit("while no host runs")
	h2 := startHost(t, host.Options{DataDir: dir, Pace: 5 * time.Millisecond})
	if h2.URL() == was {
		t.Fatalf("the new host took the old port %s; the test proves nothing", was)
	}
	s := waitFor(t, c.Client, "the answer from the new address", func(s Picture) bool {
		return isLive(s) && idle(s) && userMessages(s.View)[second] == 1
	})
	if s.HostURL != h2.URL() || c.URL() != h2.URL() {
		t.Fatalf("the client dials %s (picture %s), want the new host %s", c.URL(), s.HostURL, h2.URL())
	}
	if n := userMessages(s.View)[first]; n != 1 {
		t.Fatalf("the first prompt folded %d times", n)
	}
}

// TestClientWithoutFollowStaysOnItsAddress: without FollowLocalHost, the
// client dials the address it was given, whatever the data directory
// records since.
func TestClientWithoutFollowStaysOnItsAddress(t *testing.T) {
	dir := t.TempDir()
	h := startHost(t, host.Options{DataDir: dir})
	sid := createSession(t, h.URL(), h.Token(), "staying")
	c := fastClient(t, Options{URL: h.URL(), DataDir: dir, HostsFile: "-", SessionID: sid})
	waitFor(t, c.Client, "live", isLive)
	was := h.URL()
	h.Close()
	h2 := startHost(t, host.Options{DataDir: dir})
	waitFor(t, c.Client, "a few failed attempts", func(s Picture) bool { return s.Freshness.Attempt >= 3 })
	if c.URL() != was || h2.URL() == was {
		t.Fatalf("the client dials %s; it was given %s (the new host is %s)", c.URL(), was, h2.URL())
	}
}
