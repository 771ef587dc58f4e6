package sync

import "time"

// clock is where the loop reads the time and sets its alarms: the real
// one (Options.Now and the runtime's timers), or a test's, which moves
// only when the test says.
type clock interface {
	Now() time.Time
	NewTimer(d time.Duration) clockTimer
}

// clockTimer is a one-shot timer of a clock (time.Timer's contract).
type clockTimer interface {
	Chan() <-chan time.Time
	Stop() bool
	Reset(d time.Duration) bool
}

// realClock reads now (Options.Now) and sets the runtime's timers.
type realClock struct{ now func() time.Time }

func (c realClock) Now() time.Time { return c.now() }

func (realClock) NewTimer(d time.Duration) clockTimer { return realTimer{time.NewTimer(d)} }

type realTimer struct{ *time.Timer }

func (t realTimer) Chan() <-chan time.Time { return t.C }
