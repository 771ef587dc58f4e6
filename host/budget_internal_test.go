package host

import (
	"testing"
	"time"
)

func TestInvalidMeter(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var m invalidMeter
	for i := range invalidBurst {
		if !m.allow(t0) {
			t.Fatalf("frame %d of the burst refused", i+1)
		}
	}
	if m.allow(t0) {
		t.Fatal("a frame past the burst, at once, was allowed")
	}
	// A second refills invalidRate tokens, no more than the burst.
	later := t0.Add(time.Second)
	for i := range invalidRate {
		if !m.allow(later) {
			t.Fatalf("frame %d after a second refused", i+1)
		}
	}
	if m.allow(later) {
		t.Fatal("more than invalidRate frames a second were allowed")
	}
	if !m.allow(later.Add(time.Hour)) || m.tokens > invalidBurst {
		t.Fatalf("after an hour: tokens %.1f (burst %d)", m.tokens, invalidBurst)
	}
}
