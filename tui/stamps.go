package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// messageStamp is the time drawn at the right of a message's header line:
// how long ago it was recorded ("5 min ago", HumanTime), or the full local
// date and time when the item is selected. Only prompts and agent messages
// carry one; "" when the item has no readable recordedAt.
//
// The stamp is drawn into the frame (stampLine), never into the renderer's
// cached lines, so a clock that moves re-renders nothing.
func messageStamp(it *model.Item, now time.Time, selected bool) string {
	if it == nil || it.Kind != model.KindUserMessage && it.Kind != model.KindAgentMessage || it.RecordedAt == "" {
		return ""
	}
	at, err := time.Parse(time.RFC3339Nano, it.RecordedAt)
	if err != nil {
		return ""
	}
	if selected {
		return at.In(now.Location()).Format("2006-01-02 15:04:05")
	}
	return HumanTime(at, now)
}

// stampLine puts stamp, muted, at the right edge of a header line of
// width w, when it fits with two cells to spare; otherwise the line is
// returned unchanged.
func (t *transcript) stampLine(line, stamp string, w int) string {
	stamp = termtext.VisibleLine(stamp)
	sw := ansi.StringWidth(stamp)
	if stamp == "" || ansi.StringWidth(line)+sw+2 > w {
		return line
	}
	return padBefore(line, w-sw) + t.theme.Muted.Render(stamp)
}

// headerStamp returns row i's header line (its first rendered line) with
// its time stamp, for the frame.
func (t *transcript) headerStamp(i int, line string, w int) string {
	row := t.set.rows[i]
	if row.Item == nil || t.now.IsZero() {
		return line
	}
	return t.stampLine(line, messageStamp(row.Item, t.now, t.isSelected(i)), w)
}

// clockMsg redraws the frame once a minute so that the message times move
// on while nothing else happens (no item is re-rendered: see messageStamp).
type clockMsg struct{}

func (m *Model) clockTick() tea.Cmd {
	return m.after(time.Minute, func(time.Time) tea.Msg { return clockMsg{} })
}
