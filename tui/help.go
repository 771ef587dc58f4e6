package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/keymap"
	"github.com/lookout-sh/lookout/themes"
)

// helpBody is every binding of the key map, one block per group (its
// title, then "keys  description" lines, keys aligned within the group),
// set side by side as far as width allows (layoutColumns). The help
// screen shows only the key map's own text.
func helpBody(t themes.Theme, km keymap.KeyMap, width int) []string {
	var blocks [][]string
	for _, g := range km.Groups() {
		kw := 0
		for _, b := range g.Bindings {
			kw = max(kw, ansi.StringWidth(b.Help().Key))
		}
		block := []string{" " + t.AgentLabel.Render(g.Title)}
		for _, b := range g.Bindings {
			if !b.Enabled() {
				continue
			}
			k := b.Help().Key
			head := "   " + t.StatusKey.Render(k+strings.Repeat(" ", kw-ansi.StringWidth(k))) + "  "
			// A description wider than the screen wraps under itself.
			for i, l := range strings.Split(ansi.Wordwrap(b.Help().Desc, max(12, width-5-kw), " "), "\n") {
				if i > 0 {
					head = blank(5 + kw)
				}
				block = append(block, head+t.Help.Render(l))
			}
		}
		blocks = append(blocks, block)
	}
	return layoutColumns(blocks, width)
}

// helpTitle is the help screen's first line.
func helpTitle(t themes.Theme, km keymap.KeyMap) string {
	return " " + t.AgentLabel.Render("Keys") + t.Muted.Render(" · "+km.Help.Close.Help().Key+" closes")
}
