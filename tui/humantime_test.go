package tui

import (
	"testing"
	"time"

	"pgregory.net/rapid"
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

func TestHumanTimeChanges(t *testing.T) {
	loc := time.FixedZone("X", 2*3600)
	now := time.Date(2026, 3, 11, 14, 30, 0, 0, loc) // a Wednesday
	midnight := time.Date(2026, 3, 12, 0, 0, 0, 0, loc)
	cases := []struct {
		name string
		t    time.Time
		want time.Time
	}{
		{"no time: never", time.Time{}, time.Time{}},
		{"just now: at 45 s", now.Add(-10 * time.Second), now.Add(35 * time.Second)},
		{"skewed into the future: just now until 45 s", now.Add(30 * time.Second), now.Add(75 * time.Second)},
		{"far future: a minute before it", now.Add(48 * time.Hour), now.Add(48*time.Hour - time.Minute)},
		{"1 min ago: at 90 s", now.Add(-50 * time.Second), now.Add(40 * time.Second)},
		{"5 min ago: half a minute before 6", now.Add(-5*time.Minute - 10*time.Second), now.Add(20 * time.Second)},
		{"59 min ago: at the hour", now.Add(-59*time.Minute - 40*time.Second), now.Add(20 * time.Second)},
		{"today: at midnight", now.Add(-2 * time.Hour), midnight},
		{"yesterday: at midnight", time.Date(2026, 3, 10, 9, 12, 0, 0, loc), midnight},
		{"a weekday: when a week old", time.Date(2026, 3, 6, 18, 40, 0, 0, loc), time.Date(2026, 3, 13, 0, 0, 0, 0, loc)},
		{"this year: at the new year", time.Date(2026, 1, 2, 15, 4, 0, 0, loc), time.Date(2027, 1, 1, 0, 0, 0, 0, loc)},
		{"an earlier year: never", time.Date(2025, 11, 30, 8, 0, 0, 0, loc), time.Time{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := humanTimeChanges(c.t, now); !got.Equal(c.want) {
				t.Fatalf("humanTimeChanges(%v) = %v, want %v", c.t, got, c.want)
			}
		})
	}
}

// humanTimeChanges is exact: HumanTime reads the same up to the instant
// it names and differently from that instant on.
func TestHumanTimeChangesAgreesWithHumanTime(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		loc := time.FixedZone("Y", rapid.IntRange(-12, 14).Draw(rt, "zone")*3600)
		now := time.Date(2026, 6, 15, 12, 0, 0, 0, loc).Add(time.Duration(rapid.Int64Range(-400*24*3600, 400*24*3600).Draw(rt, "now")) * time.Second)
		at := now.Add(-time.Duration(rapid.Int64Range(-3*24*3600, 400*24*3600).Draw(rt, "ago")) * time.Second)
		text := HumanTime(at, now)
		next := humanTimeChanges(at, now)
		if next.IsZero() {
			if later := HumanTime(at, now.AddDate(3, 0, 0)); later != text {
				rt.Fatalf("never changes, yet reads %q, then %q", text, later)
			}
			return
		}
		if !next.After(now) {
			rt.Fatalf("the change %v is not after now %v", next, now)
		}
		if got := HumanTime(at, next); got == text {
			rt.Fatalf("at the change %v it still reads %q", next, got)
		}
		for _, before := range []time.Time{next.Add(-time.Nanosecond), now.Add(next.Sub(now) / 2)} {
			if got := HumanTime(at, before); got != text {
				rt.Fatalf("it reads %q at %v, before the change %v; %q at now", got, before, next, text)
			}
		}
	})
}
