package tui

import (
	"testing"
	"time"
)

func TestCountdownStep(t *testing.T) {
	cases := []struct {
		remaining, want time.Duration
	}{
		{2300 * time.Millisecond, 300 * time.Millisecond}, // "3s" until 2 s are left
		{2 * time.Second, time.Second},                    // "2s" for a whole second
		{999 * time.Millisecond, 999 * time.Millisecond},  // "1s" until none is left
	}
	for _, c := range cases {
		if got := countdownStep(c.remaining); got != c.want {
			t.Errorf("countdownStep(%v) = %v, want %v", c.remaining, got, c.want)
		}
	}
}
