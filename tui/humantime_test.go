package tui

import (
	"testing"
	"time"
)

func TestHumanTime(t *testing.T) {
	loc := time.FixedZone("X", 2*3600)
	now := time.Date(2026, 3, 11, 14, 30, 0, 0, loc) // a Wednesday
	cases := []struct {
		t    time.Time
		want string
	}{
		{time.Time{}, "—"},
		{now, "just now"},
		{now.Add(-44 * time.Second), "just now"},
		{now.Add(30 * time.Second), "just now"}, // clock skew
		{now.Add(-50 * time.Second), "1 min ago"},
		{now.Add(-5*time.Minute - 10*time.Second), "5 min ago"},
		{now.Add(-59 * time.Minute), "59 min ago"},
		{now.Add(-2 * time.Hour), "today 12:30"},
		{time.Date(2026, 3, 11, 0, 0, 0, 0, loc), "today 00:00"},
		{time.Date(2026, 3, 10, 23, 59, 0, 0, loc), "yesterday 23:59"},
		{time.Date(2026, 3, 10, 9, 12, 0, 0, time.UTC), "yesterday 11:12"}, // shown in now's zone
		{time.Date(2026, 3, 6, 18, 40, 0, 0, loc), "Fri 18:40"},
		{time.Date(2026, 3, 5, 18, 40, 0, 0, loc), "Thu 18:40"},
		{time.Date(2026, 3, 4, 18, 40, 0, 0, loc), "Mar 4 18:40"}, // a week ago: the weekday would be ambiguous
		{time.Date(2026, 1, 2, 15, 4, 0, 0, loc), "Jan 2 15:04"},
		{time.Date(2025, 11, 30, 8, 0, 0, 0, loc), "2025-11-30"},
		{now.Add(48 * time.Hour), "2026-03-13 14:30"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			if got := HumanTime(c.t, now); got != c.want {
				t.Errorf("HumanTime(%v) = %q, want %q", c.t, got, c.want)
			}
		})
	}
}
