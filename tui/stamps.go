package tui

import (
	"time"

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
	at, ok := stampedAt(it)
	if !ok {
		return ""
	}
	return stampText(at, now, selected)
}

// stampText is the stamp of a message recorded at at.
func stampText(at, now time.Time, selected bool) string {
	if selected {
		return at.In(now.Location()).Format("2006-01-02 15:04:05")
	}
	return HumanTime(at, now)
}

// stampedAt is when a message that shows a time stamp was recorded; false
// for an item that shows none.
func stampedAt(it *model.Item) (time.Time, bool) {
	if it == nil || it.Kind != model.KindUserMessage && it.Kind != model.KindAgentMessage || it.RecordedAt == "" {
		return time.Time{}, false
	}
	at, err := time.Parse(time.RFC3339Nano, it.RecordedAt)
	return at, err == nil
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
// its time stamp, for the frame, and notes when that stamp next reads
// differently (stampsChange; a selected item's full date never does).
func (t *transcript) headerStamp(i int, line string, w int) string {
	row := t.set.rows[i]
	if row.Item == nil || t.now.IsZero() {
		return line
	}
	at, ok := stampedAt(row.Item)
	if !ok {
		return line
	}
	selected := t.isSelected(i)
	if !selected {
		t.stampsChange = earliest(t.stampsChange, humanTimeChanges(at, t.now))
	}
	return t.stampLine(line, stampText(at, t.now, selected), w)
}

// earliest is the earlier of two instants, the zero time standing for
// never.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}
