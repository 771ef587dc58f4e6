package host

import (
	"testing"
	"time"
)

func TestDeltaFlush(t *testing.T) {
	var d deltaFlush
	if d.hurry() {
		t.Fatal("hurry with no flush waiting asked the caller to flush")
	}

	ran := make(chan struct{}, 4)
	flush := func() { ran <- struct{}{} }
	d.start(flush)
	if !d.hurry() {
		t.Fatal("hurry of a waiting flush did not hand it to the caller")
	}
	if d.hurry() {
		t.Fatal("a second hurry handed the same flush over again")
	}
	select {
	case <-ran:
		t.Fatal("a hurried flush's timer still ran it")
	case <-time.After(4 * deltaFlushDelay):
	}

	d.start(flush) // the timer is reused
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("a waiting flush never ran")
	}
	d.fired()
	if d.hurry() {
		t.Fatal("hurry after the flush began asked for another")
	}
}
