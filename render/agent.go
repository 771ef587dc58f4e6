package render

import "github.com/lookout-sh/lookout/model"

// agentMessage renders the agent's reply whole: a label line (how it
// ended when it did not complete), then the text as markdown indented
// under it. A message seen while it streamed is laid out by agentFramed
// instead (stream.go), which re-renders only the unstable tail and reuses
// the streamed chunks when it completes; this is the one-shot render the
// streamed one equals.
func (r *Renderer) agentMessage(it *model.Item, c *itemCache, cw int, o ItemOptions) []string {
	indent, mw := "  ", cw-2
	if cw < 12 {
		indent, mw = "", cw
	}
	c.md = nil
	body := indentLines(indent, r.markdown(it.Text(), mw))
	lines := make([]string, 0, len(body)+2)
	lines = append(lines, clamp(r.agentHeader(it, o), cw))
	lines = append(lines, body...)
	return append(lines, r.annotationLines(it, indent, mw)...)
}
