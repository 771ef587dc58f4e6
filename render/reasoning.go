package render

import (
	"strings"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// reasoning renders the model's thinking summary. Collapsed (the default)
// it is one muted line, "▸ Thinking: <first summary line>", cut to the
// width; expanded it lists every summary part, wrapped, a blank line
// between parts. Summaries are markdown, processed lightly: "**" markers
// are dropped, and a line that is all emphasis or a heading shows bold.
func (r *Renderer) reasoning(it *model.Item, cw int, o ItemOptions) []string {
	t := r.theme
	parts := it.Summary()
	mark := "▸"
	if o.Expanded {
		mark = "▾"
	}
	if live(it) {
		mark = spin(o, mark)
	}
	head := mark + " Thinking"
	if !o.Expanded {
		first := ""
		for _, p := range parts {
			if first = summaryTitle(p); first != "" {
				break
			}
		}
		switch {
		case first != "":
			head += ": " + first
		case live(it):
			head += "…"
		}
		if n := len(parts); n > 1 {
			head += " (" + itoa(n) + " parts)"
		}
	}
	lines := []string{t.Reasoning.Render(truncateEnd(termtext.Line(head), cw))}
	if o.Expanded {
		indent, w := "  ", cw-2
		if cw < 12 {
			indent, w = "", cw
		}
		for i, p := range parts {
			if i > 0 {
				lines = append(lines, "")
			}
			for src := range strings.SplitSeq(termtext.Text(strings.TrimSpace(p)), "\n") {
				style := t.Reasoning
				if title := summaryTitle(src); title != "" && title != strings.TrimSpace(src) {
					// A line that is all emphasis ("**Planning**") is a title.
					src, style = title, t.Reasoning.Bold(true)
				}
				for _, l := range wrapPlain(strings.ReplaceAll(src, "**", ""), w) {
					if l == "" {
						lines = append(lines, "")
						continue
					}
					lines = append(lines, indent+style.Render(l))
				}
			}
		}
	}
	return append(lines, r.annotationLines(it, "", cw)...)
}

// summaryTitle is the first line of a summary part with its markdown
// emphasis markers ("**Planning**") removed.
func summaryTitle(p string) string {
	l := firstLine(p)
	l = strings.TrimLeft(l, "# ")
	for _, m := range []string{"**", "__", "*", "_"} {
		if len(l) > 2*len(m) && strings.HasPrefix(l, m) && strings.HasSuffix(l, m) {
			l = l[len(m) : len(l)-len(m)]
			break
		}
	}
	// Emphasis inside the line ("**Reading.** The user…") is dropped too.
	return strings.TrimSpace(strings.ReplaceAll(l, "**", ""))
}
