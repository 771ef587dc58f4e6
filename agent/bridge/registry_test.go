package bridge

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

type entry struct{ name string }

var errShut = errors.New("shut down")

func TestRegistryHoldsOneEntryPerSession(t *testing.T) {
	r := NewRegistry[*entry](errShut)
	a, b := &entry{"a"}, &entry{"b"}
	if got, err := r.Get("s1"); got != nil || err != nil {
		t.Fatalf("empty registry: %v, %v", got, err)
	}
	if err := r.Add("s1", a); err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Get("s1"); got != a {
		t.Fatalf("Get = %v", got)
	}
	if err := r.Add("s1", b); err != nil { // a newer child for the same session
		t.Fatal(err)
	}
	r.Forget("s1", a)
	if got, _ := r.Get("s1"); got != b {
		t.Errorf("forgetting the old child dropped the new one: %v", got)
	}
	r.Forget("s1", b)
	if got, _ := r.Get("s1"); got != nil {
		t.Errorf("Forget left %v", got)
	}
}

func TestRegistryCloseStopsEveryEntryAtOnceAndRefusesMore(t *testing.T) {
	r := NewRegistry[*entry](errShut)
	for _, id := range []string{"s1", "s2", "s3"} {
		if err := r.Add(id, &entry{id}); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatalf("Err before Close = %v", err)
	}
	var stopped atomic.Int32
	start := time.Now()
	r.Close(func(*entry) {
		time.Sleep(100 * time.Millisecond)
		stopped.Add(1)
	})
	if stopped.Load() != 3 {
		t.Errorf("%d entries stopped, want 3", stopped.Load())
	}
	if d := time.Since(start); d > 250*time.Millisecond {
		t.Errorf("stopping took %v: not in parallel", d)
	}
	if err := r.Err(); !errors.Is(err, errShut) {
		t.Errorf("Err after Close = %v", err)
	}
	if _, err := r.Get("s1"); !errors.Is(err, errShut) {
		t.Errorf("Get after Close = %v", err)
	}
	if err := r.Add("s4", &entry{"s4"}); !errors.Is(err, errShut) {
		t.Errorf("Add after Close = %v", err)
	}
	r.Close(func(e *entry) { t.Errorf("%s stopped twice", e.name) })
}
