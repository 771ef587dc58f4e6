package host

import (
	"encoding/json"
	"testing"
)

// A replica retired by a takeover hands back its subscribers, to be told
// to resume once the session is in place; a subscribe that found the
// replica before it was retired is told the same, and registers nothing.
func TestRetiredReplicaSendsSubscribersToResume(t *testing.T) {
	h := &Host{conns: map[*conn]struct{}{}}
	s := newSession(h, sessionRecord{ID: "s1", Epoch: "e1"})
	s.replica = true
	stopped := false
	s.stopRelay = func() error { stopped = true; return nil }
	before, _ := connPair(t, 16)
	s.subs[before] = struct{}{}

	resumers := s.retire()
	if !stopped {
		t.Error("the replica's relay still runs after retire")
	}
	if !s.isRetired() {
		t.Error("the replica is not retired")
	}
	if len(resumers) != 1 || resumers[0] != before {
		t.Fatalf("retire handed back %d subscribers, want the one", len(resumers))
	}
	if before.isClosing() {
		t.Error("retire closed a subscriber before the session it resumes on is in place")
	}
	closeResumers(resumers)
	if !before.isClosing() || before.code != closeServiceRestart {
		t.Errorf("a resumer is closing %v with %d, want 1012", before.isClosing(), before.code)
	}

	late, _ := connPair(t, 16)
	if err := s.subscribe(late, json.RawMessage(`1`), nil, nil, 100); err != nil {
		t.Fatalf("subscribe to a retired replica: %v", err)
	}
	if _, ok := s.subs[late]; ok {
		t.Error("a retired replica took a new subscriber")
	}
	if !late.isClosing() || late.code != closeServiceRestart {
		t.Errorf("the late subscriber is closing %v with %d, want 1012", late.isClosing(), late.code)
	}
	if q := queued(late); q != "" {
		t.Errorf("the late subscriber was sent %s", q)
	}
}
