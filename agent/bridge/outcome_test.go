package bridge

import (
	"context"
	"errors"
	"testing"
)

func TestOutcomeTheFirstOneCounts(t *testing.T) {
	o := NewOutcome()
	if o.Finished() {
		t.Fatal("a new outcome is finished")
	}
	select {
	case err := <-o.Done():
		t.Fatalf("a new outcome is done: %v", err)
	default:
	}
	first := errors.New("the child died")
	o.Finish(first)
	o.Finish(nil) // too late
	if !o.Finished() {
		t.Error("Finish did not finish it")
	}
	if err := <-o.Done(); err != first {
		t.Errorf("Done received %v, want the first outcome", err)
	}
	select {
	case err := <-o.Done():
		t.Errorf("a second outcome was received: %v", err)
	default:
	}
}

func TestOutcomeEndsBefore(t *testing.T) {
	o := NewOutcome()
	expired, cancel := context.WithCancel(context.Background())
	cancel()
	if o.EndsBefore(expired) {
		t.Error("an outcome not known ended before an expired context")
	}
	o.Finish(errors.New("stopped"))
	if !o.EndsBefore(context.Background()) {
		t.Error("a known outcome did not end before a live context")
	}
}
