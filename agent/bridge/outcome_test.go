package bridge

import (
	"context"
	"errors"
	"testing"
)

func TestOutcomeTheFirstOneCounts(t *testing.T) {
	o := NewOutcome()
	if o.Finished() || o.Err() != nil {
		t.Fatal("a new outcome is known")
	}
	select {
	case <-o.Done():
		t.Fatal("a new outcome is done")
	default:
	}
	first := errors.New("the child died")
	o.Finish(first)
	o.Finish(nil) // too late
	<-o.Done()
	if !o.Finished() || !errors.Is(o.Err(), first) {
		t.Errorf("Finished %v, Err %v; want true and the first outcome", o.Finished(), o.Err())
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
