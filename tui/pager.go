package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/themes"
)

// overlay is a full-body screen shown instead of the transcript (the
// composer and status bar stay): help, or the diagnostics view.
type overlay int

const (
	overlayNone overlay = iota
	overlayHelp
	overlayDiagnostics
	overlayReview // the first waiting approval, whole (review.go)
	overlayStatus // /status: what the session's state says (slashstatus.go)
)

// pageLines lays a scrollable page out in exactly height lines of width
// cells: the title, a blank line, and a window of body starting at line
// off. When the body does not fit, the last line says what is above and
// below and how to scroll. It returns the lines and off clamped to the
// body (the caller stores it back).
func pageLines(t themes.Theme, title string, body []string, off, width, height int) ([]string, int) {
	out := make([]string, 0, max(height, 0))
	if height <= 0 {
		return out, 0
	}
	out = append(out, fit(title, width))
	if height == 1 {
		return out, 0
	}
	out = append(out, blank(width))
	room := pageRoom(len(body), height)
	scroll := room < len(body) && room < height-2
	maxOff := max(0, len(body)-room)
	off = min(max(off, 0), maxOff)
	for i := off; i < off+room && i < len(body); i++ {
		out = append(out, fit(body[i], width))
	}
	for len(out) < height && (!scroll || len(out) != height-1) {
		out = append(out, blank(width))
	}
	if scroll {
		var parts []string
		if off > 0 {
			parts = append(parts, "↑ more")
		}
		if off < maxOff {
			parts = append(parts, "↓ more")
		}
		parts = append(parts, "lines "+itoa(off+1)+"–"+itoa(min(off+room, len(body)))+" of "+itoa(len(body)),
			"↑/↓ pgup/pgdn")
		out = append(out, fit("  "+t.Muted.Render(strings.Join(parts, " · ")), width))
	}
	return out, off
}

// pageRoom is how many body lines of n a page of height shows: all but
// the title, its blank line and, when the body does not fit, the scroll
// line.
func pageRoom(n, height int) int {
	room := height - 2
	if n > room && room >= 2 { // room for a line of body and the scroll line
		room--
	}
	return max(room, 0)
}

// scrollOverlay moves the open overlay's window for a key of the
// Help.Scroll binding or a wheel step; the next layout clamps it.
func (m *Model) scrollOverlay(msg tea.Msg) bool {
	page := max(1, m.height-m.comp.height()-4)
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			m.overlayOff -= 3
		case tea.MouseWheelDown:
			m.overlayOff += 3
		}
		return true
	case tea.KeyPressMsg:
		if !key.Matches(msg, m.km.Help.Scroll) {
			return false
		}
		switch msg.String() {
		case "up", "k":
			m.overlayOff--
		case "down", "j":
			m.overlayOff++
		case "pgup":
			m.overlayOff -= page
		case "pgdown", "space":
			m.overlayOff += page
		case "home", "g":
			m.overlayOff = 0
		case "end", "G":
			m.overlayOff = 1 << 30
		}
		return true
	}
	return false
}

// layoutColumns sets blocks (each a title line and its lines) side by side
// in as many columns as fit width, row by row in order (a blank line
// between rows), each column as wide as its widest block; one column,
// blocks separated by a blank line, when nothing else fits.
func layoutColumns(blocks [][]string, width int) []string {
	const gap = 4
	bw := make([]int, len(blocks))
	for i, b := range blocks {
		for _, l := range b {
			bw[i] = max(bw[i], ansi.StringWidth(l))
		}
	}
	n := max(1, len(blocks))
	var colW []int
	for ; n > 1; n-- {
		colW = make([]int, n)
		for i := range blocks {
			colW[i%n] = max(colW[i%n], bw[i])
		}
		total := gap * (n - 1)
		for _, w := range colW {
			total += w
		}
		if total <= width {
			break
		}
	}
	if n == 1 {
		colW = []int{width}
	}
	var out []string
	for row := 0; row*n < len(blocks); row++ {
		if row > 0 {
			out = append(out, "")
		}
		first := row * n
		last := min(first+n, len(blocks))
		h := 0
		for i := first; i < last; i++ {
			h = max(h, len(blocks[i]))
		}
		for r := 0; r < h; r++ {
			var b strings.Builder
			for i := first; i < last; i++ {
				l := ""
				if r < len(blocks[i]) {
					l = blocks[i][r]
				}
				if i < last-1 {
					b.WriteString(fit(l, colW[i-first]+gap))
				} else {
					b.WriteString(l)
				}
			}
			out = append(out, b.String())
		}
	}
	return out
}
