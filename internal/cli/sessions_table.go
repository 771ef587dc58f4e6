package cli

import (
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/render"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
	"github.com/lookout-sh/lookout/tui"
)

// sessionsTable is `lookout sessions`' readable output: a header and one
// line per session, in the order given (the caller sorts with
// sync.SortSessions, the picker's order), the last update as
// tui.HumanTime relative to now, a HOST column when a fleet host named any
// session's host, a COST column when an agent reported any session's cost,
// columns aligned by terminal cells (a wide
// title or id does not shift the next column). Every cell comes from the
// host and is one clean line (termtext.Line).
func sessionsTable(ss []sync.SessionInfo, now time.Time) string {
	withHost := slices.ContainsFunc(ss, func(s sync.SessionInfo) bool { return s.Host != "" })
	withCost := slices.ContainsFunc(ss, func(s sync.SessionInfo) bool { return render.CostText(s.CostUSD) != "" })
	head := []string{"SESSION", "STATUS"}
	if withHost {
		head = append(head, "HOST")
	}
	head = append(head, "UPDATED")
	if withCost {
		head = append(head, "COST")
	}
	rows := [][]string{append(head, "TITLE")}
	for _, s := range ss {
		row := []string{termtext.Line(s.SessionID), tui.SessionState(s)}
		if withHost {
			row = append(row, termtext.Line(s.Host))
		}
		row = append(row, tui.HumanTime(s.Updated(), now))
		if withCost {
			row = append(row, render.CostText(s.CostUSD))
		}
		rows = append(rows, append(row, termtext.Line(s.Title)))
	}
	ws := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			ws[i] = max(ws[i], ansi.StringWidth(c))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		var line strings.Builder
		for i, c := range r {
			line.WriteString(c)
			if i < len(r)-1 {
				line.WriteString(strings.Repeat(" ", ws[i]-ansi.StringWidth(c)+2))
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}
