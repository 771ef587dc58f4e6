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
