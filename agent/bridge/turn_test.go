package bridge

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
)

// driver is a TurnDriver that records what RunTurn asked of it.
type driver struct {
	o          *Outcome
	sendErr    error
	wait       time.Duration
	failure    error
	onSend     func()
	stops      bool // Interrupt ends the turn
	interrupts int
	overdue    int
}

func (d *driver) Send() error {
	if d.onSend != nil {
		d.onSend()
	}
	return d.sendErr
}

func (d *driver) Refused(error) (time.Duration, error) { return d.wait, d.failure }

func (d *driver) Interrupt(ctx context.Context) {
	d.interrupts++
	if _, ok := ctx.Deadline(); !ok {
		panic("the interrupt has no deadline")
	}
	if d.stops {
		d.o.Finish(errors.New("stopped"))
	}
}

func (d *driver) Overdue() { d.overdue++ }

func TestRunTurnReturnsTheOutcome(t *testing.T) {
	o := NewOutcome()
	want := errors.New("the model failed")
	d := &driver{o: o, onSend: func() { go o.Finish(want) }}
	if err := RunTurn(context.Background(), o, d, TurnOptions{Grace: time.Second}); !errors.Is(err, want) {
		t.Errorf("RunTurn = %v, want the outcome", err)
	}
	if d.interrupts != 0 || d.overdue != 0 {
		t.Errorf("%d interrupts, %d overdue for a turn that ended", d.interrupts, d.overdue)
	}
}

func TestRunTurnInterrupts(t *testing.T) {
	for _, stops := range []bool{true, false} {
		o := NewOutcome()
		ctx, cancel := context.WithCancel(context.Background())
		d := &driver{o: o, stops: stops, onSend: cancel}
		start := time.Now()
		err := RunTurn(ctx, o, d, TurnOptions{Grace: 50 * time.Millisecond})
		if !errors.Is(err, context.Canceled) || d.interrupts != 1 {
			t.Errorf("stops %v: RunTurn = %v after %d interrupts, want the context's end after one", stops, err, d.interrupts)
		}
		if want := map[bool]int{true: 0, false: 1}[stops]; d.overdue != want {
			t.Errorf("stops %v: overdue %d times, want %d", stops, d.overdue, want)
		}
		if !stops && time.Since(start) < 50*time.Millisecond {
			t.Error("an overdue turn did not wait out the grace period")
		}
	}
}

func TestRunTurnInterruptEndsWithin(t *testing.T) {
	o := NewOutcome()
	ctx, cancel := context.WithCancel(context.Background())
	within, end := context.WithCancel(context.Background())
	d := &driver{o: o, onSend: func() { cancel(); end() }}
	start := time.Now()
	_ = RunTurn(ctx, o, d, TurnOptions{Grace: time.Minute, Within: within})
	if d.overdue != 1 || time.Since(start) > 10*time.Second {
		t.Errorf("overdue %d after %v: Within did not bound the wait", d.overdue, time.Since(start))
	}
}

func TestRunTurnRefused(t *testing.T) {
	refusal := errors.New("refused")
	died := errors.New("the child died")

	o := NewOutcome()
	d := &driver{o: o, sendErr: errors.New("write"), failure: refusal}
	if err := RunTurn(context.Background(), o, d, TurnOptions{}); !errors.Is(err, refusal) {
		t.Errorf("RunTurn = %v, want the refusal", err)
	}

	o = NewOutcome()
	d = &driver{o: o, sendErr: errors.New("write"), failure: refusal, wait: time.Minute,
		onSend: func() { time.AfterFunc(10*time.Millisecond, func() { o.Finish(died) }) }}
	if err := RunTurn(context.Background(), o, d, TurnOptions{}); !errors.Is(err, died) {
		t.Errorf("RunTurn = %v, want the outcome that came within the wait", err)
	}

	o = NewOutcome()
	ctx, cancel := context.WithCancel(context.Background())
	d = &driver{o: o, sendErr: errors.New("write"), failure: refusal, onSend: cancel}
	if err := RunTurn(ctx, o, d, TurnOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("RunTurn = %v, want an interrupted turn's end", err)
	}
}

func TestStartFailure(t *testing.T) {
	var f *host.TurnFailure
	if err := StartFailure(context.Background(), errors.New("no binary")); !errors.As(err, &f) || f.Code != "agentStartFailed" || f.Message != "no binary" {
		t.Errorf("StartFailure = %v, want agentStartFailed saying why", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := StartFailure(ctx, errors.New("no binary")); !errors.Is(err, context.Canceled) {
		t.Errorf("StartFailure of an interrupted turn = %v, want its context's end", err)
	}
}
