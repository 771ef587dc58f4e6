package host

import (
	"testing"
	"time"
)

func TestGatherBound(t *testing.T) {
	for _, c := range []struct {
		limit, want int
	}{{1, 1}, {4, 1}, {16, 4}, {256, 64}, {4096, 64}} {
		t.Run("", func(t *testing.T) {
			if got := gatherBound(c.limit); got != c.want {
				t.Fatalf("gatherBound(%d) = %d, want %d", c.limit, got, c.want)
			}
		})
	}
}

// The writer waits for more deltas only while nothing but a few deltas is
// queued and no close has begun.
func TestOnlyDeltasQueued(t *testing.T) {
	delta := outMsg{data: []byte("d"), kind: kindDelta, shedKey: "s\x00A"}
	for _, c := range []struct {
		name    string
		q       []msgKind
		closing bool
		want    bool
	}{
		{"empty", nil, false, false},
		{"one delta", []msgKind{kindDelta}, false, true},
		{"deltas", []msgKind{kindDelta, kindDelta, kindDelta}, false, true},
		{"a durable event after deltas", []msgKind{kindDelta, kindDurable}, false, false},
		{"an answer", []msgKind{kindResponse}, false, false},
		{"a warning", []msgKind{kindEphemeral}, false, false},
		{"closing", []msgKind{kindDelta}, true, false},
		{"at the bound", []msgKind{kindDelta, kindDelta, kindDelta, kindDelta}, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			cn := &conn{limit: 16} // gatherBound 4
			for _, k := range c.q {
				m := delta
				m.kind = k
				cn.q = append(cn.q, m)
			}
			cn.closing = c.closing
			if got := cn.onlyDeltasQueued(); got != c.want {
				t.Fatalf("onlyDeltasQueued = %v, want %v", got, c.want)
			}
		})
	}
}

// Anything but a delta ends the wait for more deltas; so does a queue
// reaching the bound.
func TestEnqueueWakesTheGatheringWriter(t *testing.T) {
	c, _ := connPair(t, 16)
	urgent := func() bool {
		select {
		case <-c.urgent:
			return true
		default:
			return false
		}
	}
	d := outMsg{data: []byte("d"), kind: kindDelta, shedKey: "s\x00A"}
	for range 3 {
		c.enqueue(d)
	}
	if urgent() {
		t.Fatal("three deltas ended the wait")
	}
	c.enqueue(d)
	if !urgent() {
		t.Fatal("a queue at the bound did not end the wait")
	}
	c.enqueue(outMsg{data: []byte("answer"), kind: kindResponse})
	if !urgent() {
		t.Fatal("an answer did not end the wait")
	}
}

// Deltas gathered by the writer and what follows them reach the client
// whole and in order.
func TestGatheredDeltasArriveInOrder(t *testing.T) {
	c, client := connPair(t, 4096)
	go c.writeLoop()
	t.Cleanup(c.finish)
	want := []string{"d0", "d1", "d2", "turn", "d3"}
	for _, w := range want {
		kind := kindDelta
		if w == "turn" {
			kind = kindDurable
		}
		c.enqueue(outMsg{data: []byte(w), kind: kind, shedKey: "s\x00A"})
	}
	if err := client.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	for _, w := range want {
		_, got, err := client.ReadMessage()
		if err != nil || string(got) != w {
			t.Fatalf("read %q (%v), want %q", got, err, w)
		}
	}
}
