package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// question renders a question item as a card: a header with the state
// (waiting, answered, cancelled), the question wrapped, its options
// numbered with their descriptions (the ones picked marked once
// answered), and the answer. Every text is the agent's or the user's, so
// it goes through termtext.
func (r *Renderer) question(it *model.Item, cw int, o ItemOptions) []string {
	t := r.theme
	q := it.QuestionOf()
	ans, answered := it.AnswerOf()
	icon, label, style := "?", "waiting for your answer", t.Warning
	switch it.Status {
	case model.StatusAnswered:
		icon, label, style = "✓", "answered", t.Success
	case model.StatusCancelled:
		icon, label, style = "■", "cancelled", t.Muted
		if it.EndedBy() == "hostDeath" {
			label = "cancelled: the host stopped"
		}
	default:
		if it.TerminalUnknown {
			icon, label = "?", "ended: unknown"
		} else if !it.IsOpen() {
			label = termtext.Line(it.Status)
		}
	}
	boxed := cw >= 10
	top, side, bottom := "", "", ""
	bw := cw
	if boxed {
		top, side, bottom = t.ToolBorder.Render("╭─")+" ", t.ToolBorder.Render("│")+" ", t.ToolBorder.Render("╰─")
		bw = cw - 2
	}
	title := "Question"
	if h := termtext.Line(q.Header); h != "" {
		title += " · " + h
	}
	lines := []string{clamp(top+style.Render(icon)+" "+t.ToolName.Render(title)+t.Muted.Render(" · ")+style.Render(label), cw)}
	for _, l := range wrapPlain(termtext.Text(q.Text), bw) {
		lines = append(lines, side+l)
	}
	for i, opt := range q.Options {
		mark := fmt.Sprintf("%d.", i+1)
		picked := answered && slices.Contains(ans.Selected, opt.Label)
		if picked {
			mark = "●"
		}
		text := mark + " " + termtext.Line(opt.Label)
		if d := termtext.Line(opt.Description); d != "" {
			text += " — " + d
		}
		s := t.Muted
		if picked || !answered {
			s = t.Text
		}
		for _, l := range wrapPlain(text, bw) {
			lines = append(lines, side+s.Render(l))
		}
	}
	if it.IsOpen() {
		hint := "pick one"
		if q.Multiple {
			hint = "pick any"
		}
		if q.FreeText {
			hint += ", or type your own answer"
		}
		lines = append(lines, side+t.Muted.Render(clamp(hint, bw)))
	}
	if answered && ans.Text != "" {
		for _, l := range wrapPlain("Answer: "+termtext.Text(ans.Text), bw) {
			lines = append(lines, side+t.Success.Render(l))
		}
	}
	if boxed {
		lines = append(lines, bottom)
	}
	return lines
}

// QuestionAnswerText is an answer in one line: the labels picked and the
// text typed, as the status line and notices say it.
func QuestionAnswerText(a model.QuestionAnswer) string {
	parts := make([]string, 0, len(a.Selected)+1)
	for _, l := range a.Selected {
		parts = append(parts, termtext.Line(l))
	}
	if a.Text != "" {
		parts = append(parts, "“"+termtext.Line(a.Text)+"”")
	}
	return strings.Join(parts, ", ")
}

// writeQuestionMarkdown exports a question: its header, text, options
// (the picked ones checked) and answer.
func writeQuestionMarkdown(b *strings.Builder, it *model.Item, status string) {
	q := it.QuestionOf()
	ans, answered := it.AnswerOf()
	title := "Question"
	if h := termtext.Line(q.Header); h != "" {
		title += ": " + h
	}
	fmt.Fprintf(b, "## %s%s\n\n%s\n\n", title, status, termtext.Text(q.Text))
	for _, o := range q.Options {
		box := "[ ]"
		if answered && slices.Contains(ans.Selected, o.Label) {
			box = "[x]"
		}
		line := "- " + box + " " + termtext.Line(o.Label)
		if d := termtext.Line(o.Description); d != "" {
			line += " — " + d
		}
		b.WriteString(line + "\n")
	}
	if answered && ans.Text != "" {
		fmt.Fprintf(b, "\nAnswer: %s\n", termtext.Text(ans.Text))
	}
}
