package render

import "github.com/lookout-sh/lookout/model"

// agentMessage renders the agent's reply: a label line (with a spinner
// while it streams, or how it ended when it did not complete), then the
// text as markdown indented under the label. An open message re-renders
// only its unstable tail (streamMarkdown); a finished one renders whole,
// once per width (the item cache keeps it).
func (r *Renderer) agentMessage(it *model.Item, c *itemCache, cw int, o ItemOptions) []string {
	t := r.theme
	header := t.AgentLabel.Render("◆ Agent")
	switch {
	case live(it):
		header += " " + t.Accent.Render(spin(o, "…"))
	case it.Status == model.StatusStopped:
		header += t.Muted.Render(" · ") + t.Warning.Render("stopped")
	case it.Status == model.StatusFailed:
		header += t.Muted.Render(" · ") + t.Error.Render("failed")
	}
	indent, mw := "  ", cw-2
	if cw < 12 {
		indent, mw = "", cw
	}
	var body []string
	if live(it) {
		body = r.streamMarkdown(c, it.Text(), mw, indent)
	} else {
		c.md = nil
		body = indentLines(indent, r.markdown(it.Text(), mw))
	}
	lines := make([]string, 0, len(body)+2)
	lines = append(lines, clamp(header, cw))
	lines = append(lines, body...)
	return append(lines, r.annotationLines(it, indent, mw)...)
}
