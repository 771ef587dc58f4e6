package render

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/lookout-sh/lookout/model"
)

// compaction renders a context compaction as a divider across the row:
// "── context compacted ───", "── compaction failed ───" in the error
// colour, or "── compacting context… ───" while it runs.
func (r *Renderer) compaction(it *model.Item, cw int, o ItemOptions) []string {
	t := r.theme
	label, style := "context compacted", t.Divider
	switch {
	case it.Status == model.StatusFailed:
		label, style = "compaction failed", t.Error
	case it.Status == model.StatusStopped:
		label, style = "compaction stopped", t.Warning
	case live(it):
		label = spin(o, "…") + " compacting context"
	case it.TerminalUnknown:
		label = "compaction"
	}
	lines := []string{divider(label, cw, style.Render, t.Divider.Render)}
	return append(lines, r.annotationLines(it, "", cw)...)
}

// divider draws "── label ─────" filling width cells; a label that does not
// fit is cut.
func divider(label string, width int, labelStyle, ruleStyle func(...string) string) string {
	if width < 1 {
		return ""
	}
	label = truncateEnd(" "+label+" ", max(width-2, 1))
	lead := min(2, width-ansi.StringWidth(label))
	if lead < 0 {
		lead = 0
	}
	rest := width - lead - ansi.StringWidth(label)
	if rest < 0 {
		rest = 0
	}
	return ruleStyle(strings.Repeat("─", lead)) + labelStyle(label) + ruleStyle(strings.Repeat("─", rest))
}
