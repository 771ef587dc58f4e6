package host_test

import (
	"encoding/json"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// After a graceful shutdown, quiet sessions start unloaded: session/list
// shows them as a full load would, and the first request that needs one
// folds it, with the same state as before the restart. A session with
// queued turns is loaded at start and runs them.
func TestQuietSessionsLoadOnFirstUse(t *testing.T) {
	dir := t.TempDir()
	h := hosttest.Start(t, host.Options{DataDir: dir})
	c := hosttest.Dial(t, h)
	quiet, _, st := newSession(t, c)
	runTurn(t, c, quiet, st, "q1", "compact and unknown kind")
	busy, _, bst := newSession(t, c)
	if _, _, err := c.Submit(busy, "slow", "slow"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Submit(busy, "next", "queued after the slow one"); err != nil {
		t.Fatal(err)
	}
	_ = bst
	var before struct{ Sessions []map[string]any }
	c.MustCall(t, "session/list", nil, &before)
	snapBefore, _ := snapshotState(t, hosttest.Dial(t, h), quiet)
	h.Close()

	h2 := hosttest.Start(t, host.Options{DataDir: dir})
	if host.Loaded(h2, quiet) {
		t.Fatal("a quiet session was loaded at start")
	}
	if !host.Loaded(h2, busy) {
		t.Fatal("a session with a queued turn was not loaded at start")
	}
	c2 := hosttest.Dial(t, h2)
	var after struct{ Sessions []map[string]any }
	c2.MustCall(t, "session/list", nil, &after)
	for i, b := range before.Sessions {
		a := after.Sessions[i]
		if a["sessionId"] != quiet {
			continue
		}
		for _, k := range []string{"sessionId", "title", "head", "epoch", "status", "queuedTurns"} {
			if ja, jb := jsonOf(a[k]), jsonOf(b[k]); ja != jb {
				t.Errorf("unloaded %s: %s %s, loaded before %s", a["sessionId"], k, ja, jb)
			}
		}
	}
	if host.Loaded(h2, quiet) {
		t.Fatal("session/list loaded a session")
	}
	snapAfter, _ := snapshotState(t, c2, quiet)
	if !host.Loaded(h2, quiet) {
		t.Fatal("subscribing did not load the session")
	}
	if string(snapAfter.Encode()) != string(snapBefore.Encode()) {
		t.Fatal("the session's state changed across the restart")
	}
	st2 := model.NewState(quiet)
	sub, err := c2.Subscribe(quiet, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st2.LoadSnapshot(quiet, sub.Epoch, *sub.Snapshot); err != nil {
		t.Fatal(err)
	}
	runTurn(t, c2, quiet, st2, "q2", "still works")
	// The queued turn of the busy session ran after the restart.
	if r := replay(t, c2, busy, "next"); r.State != "settled" && r.State != "started" {
		t.Fatalf("queued turn after restart: %+v", r)
	}
	// A host that dies (no graceful close) leaves no summary: a session
	// that went quiet and has not moved since still starts unloaded (its
	// quiet stub), one whose journal moved after its quiet moment is
	// loaded.
	snapQuiet, _ := snapshotState(t, hosttest.Dial(t, h2), quiet)
	if _, _, err := c2.Submit(busy, "slow2", "slow"); err != nil {
		t.Fatal(err)
	}
	h2.Close() // stops the slow turn: busy's journal moves past its quiet stub
	if err := host.DropShutdownSummary(dir); err != nil {
		t.Fatal(err)
	}
	h4 := hosttest.Start(t, host.Options{DataDir: dir})
	if host.Loaded(h4, quiet) {
		t.Fatal("after an abnormal death a session that went quiet was loaded at start")
	}
	if !host.Loaded(h4, busy) {
		t.Fatal("a session that moved after its quiet moment started unloaded")
	}
	if snap, _ := snapshotState(t, hosttest.Dial(t, h4), quiet); string(snap.Encode()) != string(snapQuiet.Encode()) {
		t.Fatal("the quiet session's state changed across the abnormal restart")
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
