package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// transcriptText is the transcript area of the last layout, plain, without
// the scrollbar column.
func transcriptText(m *Model) string {
	var b strings.Builder
	for _, l := range m.tr.lines {
		p := ansi.Strip(l)
		b.WriteString(strings.TrimRight(ansi.Cut(p, 0, m.tr.contentWidth()), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// A window following a long answer that arrives in big pieces shows the
// answer's last lines while the markdown above them stays unrendered;
// scrolling up from there lands exactly where a full layout puts it.
func TestFollowLongAnswerThenScroll(t *testing.T) {
	var sb strings.Builder
	for i := 0; sb.Len() < 60000; i++ {
		sb.WriteString("## Section " + itoa(i) + "\n\nSome words of section " + itoa(i) + " that go on for a while, **bold** and `code`.\n\n")
	}
	text := sb.String() + "THE END"
	f, m := streamModel(t)
	for i := 0; i < len(text); i += 20000 {
		foldDeltas(t, f, text[i:min(i+20000, len(text))])
		m.Update(frameMsg{})
	}
	if got := m.r.Stats().MarkdownBytes; got > len(text)/2 {
		t.Fatalf("following rendered %d bytes of markdown of %d", got, len(text))
	}
	following := transcriptText(m)
	if !strings.Contains(following, "THE END") {
		t.Fatalf("the end is not on screen:\n%s", following)
	}
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	scrolled := transcriptText(m)

	// The same screens from a full layout of the same message.
	full := m.r.Item(m.view.Items[len(m.view.Items)-1], m.tr.contentWidth(), m.tr.rowOpts(len(m.tr.set.rows)-1))
	h := len(m.tr.lines)
	want := func(up int) string {
		var b strings.Builder
		for _, l := range full[len(full)-h-up : len(full)-up] {
			b.WriteString(strings.TrimRight(ansi.Strip(l), " "))
			b.WriteByte('\n')
		}
		return b.String()
	}
	if following != want(0) {
		t.Fatalf("following screen:\n%s\nfull layout's bottom:\n%s", following, want(0))
	}
	if scrolled != want(3) {
		t.Fatalf("scrolled screen:\n%s\nfull layout, 3 lines up:\n%s", scrolled, want(3))
	}
}
