package child

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"
)

var errGone = errors.New("gone")

func newTestCalls() *Calls[string, int] {
	return NewCalls[string, int](errGone, func(seq int64) string { return "req-" + strconv.FormatInt(seq, 10) })
}

func TestCallsMatchAnswersToRequests(t *testing.T) {
	c := newTestCalls()
	first, _ := c.Start()
	second, _ := c.Start()
	if first.ID() != "req-1" || second.ID() != "req-2" {
		t.Fatalf("ids %q, %q", first.ID(), second.ID())
	}
	if c.Answer("req-9", 9) {
		t.Error("an answer to no request was taken")
	}
	c.Answer("req-2", 2)
	c.Answer("req-1", 1)
	for _, w := range []struct {
		call *Call[string, int]
		want int
	}{{first, 1}, {second, 2}} {
		if got, err := w.call.Wait(context.Background()); got != w.want || err != nil {
			t.Errorf("%s: %d, %v", w.call.ID(), got, err)
		}
	}
	if c.Answer("req-1", 1) {
		t.Error("a request was answered twice")
	}
	if c.Waiting() != 0 {
		t.Errorf("%d still waiting", c.Waiting())
	}
}

func TestCallsFailWhenClosedOrGivenUp(t *testing.T) {
	c := newTestCalls()
	cancelled, _ := c.Start()
	cancelled.Cancel()
	if c.Answer(cancelled.ID(), 1) {
		t.Error("a cancelled request took an answer")
	}
	timed, _ := c.Start()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := timed.Wait(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("unanswered request: %v", err)
	}
	if c.Waiting() != 0 {
		t.Errorf("%d requests still waiting after their waiters gave up", c.Waiting())
	}
	waiting, _ := c.Start()
	c.Close()
	c.Close()
	if _, err := waiting.Wait(context.Background()); !errors.Is(err, errGone) {
		t.Errorf("a request pending at Close: %v", err)
	}
	if _, err := c.Start(); !errors.Is(err, errGone) {
		t.Errorf("a request after Close: %v", err)
	}
}
