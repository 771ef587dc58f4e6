package render

import (
	"charm.land/lipgloss/v2"
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// userMessage renders a prompt: a bar in the user colour down its left
// side, a "You" label, and the text wrapped as typed (not markdown).
func (r *Renderer) userMessage(it *model.Item, cw int) []string {
	t := r.theme
	bar := t.UserLabel.Render("┃")
	label := t.UserLabel.Render("You")
	if it.Steered() {
		// Sent into the running turn (turn/steer), not as its prompt.
		label += t.Muted.Render(" · into the running turn")
	}
	lines := r.prompt(bar, label, t.UserText, it.Text(), cw)
	if cw < 4 {
		return append(lines, r.annotationLines(it, "", cw)...)
	}
	return append(lines, r.annotationLines(it, bar+" ", cw-2)...)
}

// prompt lays out a user prompt (confirmed or pending): bar, label line,
// then the text wrapped to the width left of the bar.
func (r *Renderer) prompt(bar, label string, textStyle lipgloss.Style, text string, cw int) []string {
	if cw < 4 {
		// Too narrow for a bar: label and text only.
		lines := []string{clamp(label, cw)}
		return append(lines, styleLines(textStyle, wrapPlain(termtext.Text(text), cw))...)
	}
	body := wrapPlain(termtext.Text(text), proseWidth(cw-2))
	lines := make([]string, 0, len(body)+1)
	lines = append(lines, bar+" "+clamp(label, cw-2))
	for _, l := range body {
		if l == "" {
			lines = append(lines, bar)
			continue
		}
		lines = append(lines, bar+" "+textStyle.Render(l))
	}
	return lines
}
