package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// recordAgent answers "record N": it opens a reasoning item, records N
// completed messages after it, then streams into the reasoning item and
// completes it, so the item stays open while thousands of newer ones are
// folded.
type recordAgent struct{}

func (recordAgent) Launch(string) error { return nil }

func (recordAgent) Run(ctx context.Context, t *host.Turn) error {
	n, _ := strconv.Atoi(strings.TrimPrefix(t.Prompt(), "record "))
	open, err := t.StartItem(model.KindReasoning, model.StatusInProgress, map[string]any{"text": "thinking"})
	if err != nil {
		return err
	}
	for i := range n {
		if _, err := t.RecordItem(model.KindAgentMessage, model.StatusCompleted, map[string]any{"text": fmt.Sprint("message ", i)}); err != nil {
			return err
		}
	}
	if err := t.Delta(open, "text", " still"); err != nil {
		return fmt.Errorf("a delta for the item opened first: %w", err)
	}
	return t.CompleteItem(open, model.StatusCompleted, nil)
}

// wholeSnapshot is the snapshot of limit items that folding every durable
// event of the session gives, cut at PageBytes as the host cuts it.
func wholeSnapshot(t *testing.T, c *hosttest.Client, sid, epoch string, limit int) (model.Snapshot, *model.State) {
	t.Helper()
	st := foldAll(t, sid, pageAll(t, c, sid, epoch, host.MaxPageLimit))
	snap := st.Snapshot(limit)
	size := 0
	for i := len(snap.Items) - 1; i >= 0; i-- {
		size += len(snap.Items[i])
		if size > host.PageBytes && i < len(snap.Items)-1 {
			snap.Items, snap.HasOlder = snap.Items[i+1:], true
			break
		}
	}
	return snap, st
}

func sameSnapshot(t *testing.T, what string, got *model.Snapshot, want model.Snapshot) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Fatalf("%s: the snapshot (%d items, hasOlder %v) differs from the whole fold's (%d items, hasOlder %v)",
			what, len(got.Items), got.HasOlder, len(want.Items), want.HasOlder)
	}
}

// A session of thousands of items, whose host holds only the newest and
// the open ones, serves the snapshots that folding all of it gives, before
// and after a restart, and an item opened before all of them still takes
// deltas and its completion.
func TestLongSessionSnapshotsAsTheWholeFold(t *testing.T) {
	dir := t.TempDir()
	h := hosttest.Start(t, host.Options{DataDir: dir, AgentImpl: recordAgent{}})
	c := hosttest.Dial(t, h)
	sid, epoch, st := newSession(t, c)
	ended, _ := runTurn(t, c, sid, st, "long", "record 3500")
	if ended.Status != model.StatusCompleted {
		t.Fatalf("the turn ended %s (%+v)", ended.Status, ended.TurnError)
	}
	var whole *model.State
	for _, limit := range []int{1, host.DefaultPageLimit, host.MaxPageLimit} {
		sub, err := hosttest.Dial(t, h).Subscribe(sid, "", "", limit)
		if err != nil {
			t.Fatal(err)
		}
		var want model.Snapshot
		want, whole = wholeSnapshot(t, c, sid, epoch, limit)
		sameSnapshot(t, fmt.Sprint("limit ", limit), sub.Snapshot, want)
	}
	first := whole.Items()[1] // after the prompt
	if first.Kind != model.KindReasoning || first.String("text") != "thinking still" {
		t.Fatalf("the first item is %s %q, want the reasoning item with its delta restated", first.Kind, first.String("text"))
	}
	h.Close()

	h2 := hosttest.Start(t, host.Options{DataDir: dir, AgentImpl: recordAgent{}})
	c2 := hosttest.Dial(t, h2)
	sub, err := c2.Subscribe(sid, "", "", host.MaxPageLimit)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := wholeSnapshot(t, c2, sid, epoch, host.MaxPageLimit)
	sameSnapshot(t, "after a restart", sub.Snapshot, want)
}
