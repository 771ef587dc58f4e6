package host

import (
	"testing"
	"time"

	"github.com/lookout-sh/lookout/internal/natstest"
	"github.com/lookout-sh/lookout/model"
)

// A session struct whose append another host's claim refused is deposed
// at once and never retries its batch: not even once this host claims
// the session again, when a retried batch would be accepted after the new
// claim (chaos seed 700148: a prompt twice in one history).
func TestFencedSessionNeverRetriesItsBatch(t *testing.T) {
	url := natstest.Start(t, t.TempDir()).URL()
	a := fleetHostTTL(t, url, "a", 15*time.Second)
	s, err := a.createSession("fenced")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.flush(); err != nil {
		t.Fatal(err)
	}
	other := openJS(t, jetStreamConfig{URLs: url, Namespace: "fl"})
	if err := other.claim(s.id); err != nil {
		t.Fatal(err)
	}
	last, err := other.lastSeq(s.id)
	if err != nil {
		t.Fatal(err)
	}

	// By the time the refusal comes, the host serves the session with
	// another struct (a takeover makes a new one): stepping down by id
	// reaches that one, not s.
	a.mu.Lock()
	a.sessions[s.id] = newSession(a, sessionRecord{ID: s.id, Epoch: s.epoch})
	a.mu.Unlock()

	s.mu.Lock()
	_, err = s.emitLocked(model.MethodSessionState, map[string]any{"values": map[string]any{"title": "after the fence"}})
	s.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the fenced struct to be deposed", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.deposed && len(s.outbox) == 0
	})

	// This host claims the session again, as a takeover would.
	if err := a.fl.js.claim(s.id); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // five retry periods of the old loop
	evs, _, err := other.readAfter(s.id, last, 1<<40, 100, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) > 0 {
		t.Fatalf("the fenced struct's batch reached the journal after the new claim: %d events from seq %d", len(evs), evs[0].Seq)
	}
}
