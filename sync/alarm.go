package sync

import "time"

// alarm is a one-shot timer the loop selects on. C is nil while the alarm
// is not armed, so a select on it never fires; the loop calls fired when
// it receives from C. The zero alarm is unarmed.
type alarm struct {
	timer clockTimer
	C     <-chan time.Time
}

// arm (re)starts the alarm to ring after d on clk.
func (a *alarm) arm(clk clock, d time.Duration) {
	if a.timer == nil {
		a.timer = clk.NewTimer(d)
	} else {
		a.timer.Stop()
		a.timer.Reset(d)
	}
	a.C = a.timer.Chan()
}

// stop disarms the alarm.
func (a *alarm) stop() {
	if a.timer != nil {
		a.timer.Stop()
	}
	a.C = nil
}

// fired records that the loop received the ring.
func (a *alarm) fired() { a.C = nil }

// armed reports whether the alarm will ring.
func (a *alarm) armed() bool { return a.C != nil }
