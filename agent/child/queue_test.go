package child

import (
	"slices"
	"testing"
	"time"
)

func TestQueueKeepsOrderForOneConsumer(t *testing.T) {
	q := NewQueue[int]()
	if _, ok := q.Next(); ok {
		t.Fatal("a new queue is not empty")
	}
	q.Push(1)
	q.Push(2)
	select {
	case <-q.Ready():
	default:
		t.Fatal("Push did not signal Ready")
	}
	if v, ok := q.Next(); !ok || v != 1 {
		t.Fatalf("Next = %d, %v; want 1", v, ok)
	}
	q.Push(3)
	q.Close()
	q.Close() // more than once is fine
	select {
	case <-q.Done():
	default:
		t.Fatal("Close did not close Done")
	}
	var got []int
	q.Consume(func(v int) { got = append(got, v) })
	if !slices.Equal(got, []int{2, 3}) {
		t.Errorf("consumed %v after Close, want the values pushed before it", got)
	}
}

func TestConsumeWaitsForValuesUntilClosed(t *testing.T) {
	q := NewQueue[string]()
	out := make(chan []string)
	go func() {
		var got []string
		q.Consume(func(s string) { got = append(got, s) })
		out <- got
	}()
	for _, s := range []string{"a", "b", "c"} {
		time.Sleep(time.Millisecond)
		q.Push(s)
	}
	q.Close()
	select {
	case got := <-out:
		if !slices.Equal(got, []string{"a", "b", "c"}) {
			t.Errorf("consumed %v", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Consume did not return after Close")
	}
}
