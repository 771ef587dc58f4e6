package host

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/internal/natstest"
	"github.com/lookout-sh/lookout/model"
)

// A replica that missed relayed frames (its subscription was down while
// its writer ran a turn) notices the gap at the next relayed durable
// event, by its prevCursor, and reads what it missed from the journal:
// it ends up holding what its writer holds, seq for seq.
func TestFleetReplicaCatchesUpAfterMissedFrames(t *testing.T) {
	url := natstest.Start(t, t.TempDir()).URL()
	a, b := fleetHost(t, url, "a"), fleetHost(t, url, "b")
	s, err := a.createSession("gap")
	if err != nil {
		t.Fatal(err)
	}
	r, err := b.replicaSession(s.id)
	if err != nil || r == nil || !r.replica {
		t.Fatalf("replica %v, %v", r, err)
	}
	if err := r.stopRelay(); err != nil { // the frames of the turn below are lost
		t.Fatal(err)
	}
	if _, rerr := s.submit("gap-1", "hello", "", false); rerr != nil {
		t.Fatal(rerr)
	}
	if !s.waitIdle(30 * time.Second) {
		t.Fatal("the turn did not end")
	}
	r.mu.Lock()
	missed := r.state.DurableCursor
	r.mu.Unlock()
	if _, err := b.fleet().m.SubscribeLive(s.id, r.ingestRelayed); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	_, err = s.emitLocked(model.MethodSessionState, map[string]any{"title": "after the gap"})
	s.mu.Unlock()
	if err == nil {
		err = s.flush()
	}
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	want, wantItems, wantDurables := s.state.DurableCursor, itemsJSON(s.state), slices.Clone(s.durables)
	s.mu.Unlock()
	if missed >= want {
		t.Fatalf("the replica missed nothing (at %d, writer at %d)", missed, want)
	}
	waitFor(t, "the replica to catch up", func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.sentDurable == want
	})
	r.mu.Lock()
	same := bytes.Equal(itemsJSON(r.state), wantItems) && slices.Equal(r.durables, wantDurables)
	r.mu.Unlock()
	if !same {
		t.Fatal("the caught-up replica holds other items or durable seqs than its writer")
	}
}

// A replica whose relay lost the last frames of a burst, with nothing
// relayed after them, reads them from the journal when asked for a page.
func TestFleetReplicaPagesWhatItsRelayLost(t *testing.T) {
	url := natstest.Start(t, t.TempDir()).URL()
	a, b := fleetHost(t, url, "a"), fleetHost(t, url, "b")
	s, err := a.createSession("lost tail")
	if err != nil {
		t.Fatal(err)
	}
	r, err := b.replicaSession(s.id)
	if err != nil || r == nil {
		t.Fatalf("replica %v, %v", r, err)
	}
	if err := r.stopRelay(); err != nil {
		t.Fatal(err)
	}
	if _, rerr := s.submit("tail-1", "hello", "", false); rerr != nil {
		t.Fatal(rerr)
	}
	if !s.waitIdle(30 * time.Second) {
		t.Fatal("the turn did not end")
	}
	want, rerr := s.pageAfter(0, MaxPageLimit)
	if rerr != nil {
		t.Fatal(rerr)
	}
	got, rerr := r.pageAfter(0, MaxPageLimit)
	if rerr != nil {
		t.Fatal(rerr)
	}
	if len(got.Events) != len(want.Events) || got.EndCursor != want.EndCursor {
		t.Fatalf("the replica pages %d events up to %s, its writer %d up to %s", len(got.Events), got.EndCursor, len(want.Events), want.EndCursor)
	}
	for i := range want.Events {
		if !bytes.Equal(got.Events[i].Params, want.Events[i].Params) {
			t.Fatalf("event %d differs", i)
		}
	}
}

// itemsJSON is every item of a fold, as its JSON, one after another.
func itemsJSON(st *model.State) []byte {
	var b []byte
	for _, it := range st.Items() {
		b = it.AppendJSON(b)
	}
	return b
}
