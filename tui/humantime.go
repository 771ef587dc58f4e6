package tui

import (
	"strconv"
	"time"
)

// HumanTime writes t as a person reads a "last updated" column, relative
// to now and in now's time zone: "just now", "5 min ago", "today 14:03",
// "yesterday 09:12", "Mon 18:40" (within a week), "Jan 2 15:04" (this
// year), "2025-11-30" (older, or in the future beyond a minute of clock
// skew); "—" for the zero time. The picker and `lookout sessions` use it.
func HumanTime(t, now time.Time) string {
	if t.IsZero() {
		return "—"
	}
	t = t.In(now.Location())
	d := now.Sub(t)
	switch {
	case d < -time.Minute:
		return t.Format("2006-01-02 15:04")
	case d < 45*time.Second:
		return "just now"
	case d < time.Hour:
		return strconv.Itoa(max(1, int((d+30*time.Second)/time.Minute))) + " min ago"
	}
	y, m, dd := now.Date()
	today := time.Date(y, m, dd, 0, 0, 0, 0, now.Location())
	switch {
	case !t.Before(today):
		return "today " + t.Format("15:04")
	case !t.Before(today.AddDate(0, 0, -1)):
		return "yesterday " + t.Format("15:04")
	case !t.Before(today.AddDate(0, 0, -6)):
		return t.Format("Mon 15:04")
	case t.Year() == now.Year():
		return t.Format("Jan 2 15:04")
	}
	return t.Format("2006-01-02")
}

// humanTimeChanges is the first instant after now at which HumanTime(t, ·)
// reads differently from HumanTime(t, now), or the zero time when it never
// will (a date of an earlier year). It follows HumanTime's cases: "just
// now" until 45 s, then a minute count that steps half a minute before
// each whole minute, up to an hour; then the clock time, which changes
// words at midnights: today, yesterday, the weekday for a week, the date
// until the year ends.
func humanTimeChanges(t, now time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	loc := now.Location()
	t = t.In(loc)
	d := now.Sub(t)
	switch {
	case d < -time.Minute:
		return t.Add(-time.Minute)
	case d < 45*time.Second:
		return t.Add(45 * time.Second)
	case d < time.Hour:
		next := ((d+30*time.Second)/time.Minute+1)*time.Minute - 30*time.Second
		return t.Add(min(next, time.Hour))
	}
	y, m, dd := now.Date()
	today := time.Date(y, m, dd, 0, 0, 0, 0, loc)
	switch {
	case !t.Before(today.AddDate(0, 0, -1)): // today or yesterday
		return today.AddDate(0, 0, 1)
	case !t.Before(today.AddDate(0, 0, -6)): // a weekday: until it is a week old
		ty, tm, td := t.Date()
		return time.Date(ty, tm, td+7, 0, 0, 0, 0, loc)
	case t.Year() == now.Year():
		return time.Date(y+1, time.January, 1, 0, 0, 0, 0, loc)
	}
	return time.Time{}
}
