package host_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
)

// sessionsChanged is a sessions/changed notification's params.
type sessionsChanged struct {
	Sessions []map[string]any `json:"sessions"`
	Removed  []string         `json:"removed"`
	Initial  bool             `json:"initial"`
}

// nextChanged reads c's frames up to the next sessions/changed.
func nextChanged(t *testing.T, c *hosttest.Client) sessionsChanged {
	t.Helper()
	for {
		f, err := c.Next()
		if err != nil {
			t.Fatal(err)
		}
		if f.Method != "sessions/changed" {
			continue
		}
		var p sessionsChanged
		if err := json.Unmarshal(f.Params, &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
}

// waitEntry reads sessions/changed until one has sid's entry satisfying ok.
func waitEntry(t *testing.T, c *hosttest.Client, sid string, ok func(map[string]any) bool) map[string]any {
	t.Helper()
	for {
		for _, e := range nextChanged(t, c).Sessions {
			if e["sessionId"] == sid && ok(e) {
				return e
			}
		}
	}
}

// TestSessionsWatchStreamsWhatChanges: a watcher is told every session at
// once, then each change of an entry (a turn runs, an approval waits, it
// ends) and each session gone, and nothing while the host rests.
func TestSessionsWatchStreamsWhatChanges(t *testing.T) {
	restore := host.SetWatchEveryForTest(50)
	defer restore()
	h := hosttest.Start(t, host.Options{DemoSession: true})
	c := hosttest.Dial(t, h)
	var init struct {
		Features map[string]any `json:"features"`
	}
	c.MustCall(t, "initialize", map[string]any{"clientInfo": map[string]any{"name": "t", "version": "1"}}, &init)
	if init.Features["sessionsWatch"] != true {
		t.Fatalf("features.sessionsWatch = %v", init.Features["sessionsWatch"])
	}
	demo := h.DefaultSessionID()
	c.MustCall(t, "sessions/watch", nil, nil)
	first := nextChanged(t, c)
	if !first.Initial || len(first.Sessions) != 1 || first.Sessions[0]["sessionId"] != demo {
		t.Fatalf("the first notification is %+v, want the whole list (the demo session)", first)
	}

	var cr struct{ SessionID string }
	c.MustCall(t, "session/create", map[string]any{"title": "watched"}, &cr)
	waitEntry(t, c, cr.SessionID, func(e map[string]any) bool { return e["title"] == "watched" && e["status"] == "idle" })
	if _, _, err := c.Submit(cr.SessionID, "c1", "run a tool please"); err != nil {
		t.Fatal(err)
	}
	waitEntry(t, c, cr.SessionID, func(e map[string]any) bool { return e["needs"] == "approval" })

	e := rpcCode(t, c, "session/delete", map[string]any{"sessionId": cr.SessionID})
	switch {
	case e != nil && errReason(t, e)["reason"] == "deleteUnsupported":
		t.Log("this journal cannot delete sessions (LOOKOUT_TEST_JOURNAL): removal not checked")
	case e != nil:
		t.Fatalf("session/delete: %+v", e)
	default:
		for {
			p := nextChanged(t, c)
			if len(p.Removed) == 1 && p.Removed[0] == cr.SessionID {
				break
			}
		}
	}
	// At rest: nothing more comes while a few looks pass.
	time.Sleep(300 * time.Millisecond)
	for range c.Pending() {
		if f, _ := c.Next(); f != nil && f.Method == "sessions/changed" {
			t.Fatalf("a sessions/changed with nothing changed: %s", f.Params)
		}
	}
	c.MustCall(t, "sessions/unwatch", nil, nil)
}
