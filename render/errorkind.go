package render

import (
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// errorItem renders an error item as a callout: a bar in the error colour,
// an "Error" title, and the message wrapped beside the bar.
func (r *Renderer) errorItem(it *model.Item, cw int, _ ItemOptions) []string {
	t := r.theme
	msg := it.ErrorMessage()
	if msg == "" {
		msg = it.String("text")
	}
	if msg == "" {
		msg = "(no message)"
	}
	bar, w := t.Error.Render("┃")+" ", cw-2
	if cw < 6 {
		bar, w = "", cw
	}
	lines := []string{bar + t.Error.Bold(true).Render(clamp("✗ Error", w))}
	for _, l := range wrapPlain(termtext.Text(msg), w) {
		if l == "" {
			lines = append(lines, bar)
			continue
		}
		lines = append(lines, bar+t.Error.Render(l))
	}
	return append(lines, r.annotationLines(it, bar, w)...)
}
