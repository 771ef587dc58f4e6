package render

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// Plan step marks: done, being done, to do.
const (
	markStepDone    = "✓"
	markStepCurrent = "▸"
	markStepPending = "○"
)

// PlanProgress is a plan's progress count: "2/5" (steps completed of all).
func PlanProgress(p model.Plan) string {
	return fmt.Sprintf("%d/%d", p.Done(), len(p.Steps))
}

// planState is the label and style of a plan item's header: what the
// plan is doing, or how its turn ended.
func (r *Renderer) planState(it *model.Item, p model.Plan) (string, lipgloss.Style) {
	t := r.theme
	switch {
	case it.TerminalUnknown:
		return "ended: unknown", t.Muted
	case it.EndedBy() == "hostDeath":
		return "ended: the host stopped", t.Warning
	case it.IsOpen():
		return "in progress", t.Accent
	case it.Status == model.StatusStopped:
		return "stopped", t.Warning
	case it.Status == model.StatusFailed:
		return "failed", t.Error
	case len(p.Steps) > 0 && p.Done() == len(p.Steps):
		return "done", t.Success
	}
	return "ended", t.Muted
}

// planStep is one step as a checklist line's mark, text and style: a
// step in progress reads as its activeText while the plan is open.
func (r *Renderer) planStep(s model.PlanStep, open bool) (string, string, lipgloss.Style) {
	t := r.theme
	switch s.Status {
	case model.StepCompleted:
		return markStepDone, termtext.Line(s.Text), t.Muted
	case model.StepInProgress:
		text := s.Text
		if open && s.ActiveText != "" {
			text = s.ActiveText
		}
		return markStepCurrent, termtext.Line(text), t.Accent
	}
	return markStepPending, termtext.Line(s.Text), t.Text
}

// plan renders a plan item as a checklist card: a header with the
// progress count and the plan's state, each step with its mark (wrapped,
// its continuation lines under its text), and the agent's explanation.
// Every text is the agent's, so it goes through termtext.
func (r *Renderer) plan(it *model.Item, cw int, o ItemOptions) []string {
	t := r.theme
	p := it.PlanOf()
	label, style := r.planState(it, p)
	boxed := cw >= 10
	top, side, bottom := "", "", ""
	bw := cw
	if boxed {
		top, side, bottom = t.ToolBorder.Render("╭─")+" ", t.ToolBorder.Render("│")+" ", t.ToolBorder.Render("╰─")
		bw = cw - 2
	}
	icon := "☰"
	if live(it) && o.Spinner != "" {
		icon = o.Spinner
	}
	head := style.Render(icon) + " " + t.ToolName.Render("Plan") + t.Muted.Render(" · ") + t.Text.Render(PlanProgress(p)) +
		t.Muted.Render(" · ") + style.Render(label)
	lines := []string{clamp(top+head, cw)}
	if len(p.Steps) == 0 {
		lines = append(lines, side+t.Muted.Render(clamp("no steps", bw)))
	}
	for _, s := range p.Steps {
		mark, text, st := r.planStep(s, it.IsOpen())
		for i, l := range wrapPlain(text, max(bw-2, 1)) {
			lead := "  "
			if i == 0 {
				lead = mark + " "
			}
			lines = append(lines, side+st.Render(lead+l))
		}
	}
	if e := termtext.Text(p.Explanation); e != "" {
		for _, l := range wrapPlain(e, bw) {
			lines = append(lines, side+t.Muted.Render(l))
		}
	}
	lines = append(lines, r.annotationLines(it, side, bw)...)
	if boxed {
		lines = append(lines, bottom)
	}
	return lines
}

// PinnedPlan renders a running turn's plan pinned above the composer, in
// at most maxLines lines of width cells. Collapsed, or with room for one
// line, it is one line: the progress count and the current step. Else a
// header line (the count, and how many steps are hidden) and the steps
// around the current one: the one before it, then it and those after, as
// many as fit. hint (the key that collapses or expands it) ends the first
// line when it fits.
func (r *Renderer) PinnedPlan(it *model.Item, width, maxLines int, collapsed bool, hint string) []string {
	if it == nil || width < 1 || maxLines < 1 {
		return nil
	}
	t := r.theme
	p := it.PlanOf()
	cur := p.Current()
	head := " " + t.Accent.Render("☰") + " " + t.ToolName.Render("Plan") + " " + t.Text.Render(PlanProgress(p))
	withHint := func(head string) string {
		if hint = termtext.Line(hint); hint != "" && CellWidth(head)+3+CellWidth(hint) <= width {
			head += t.Muted.Render(" · " + hint)
		}
		return clamp(head, width)
	}
	if collapsed || maxLines == 1 || len(p.Steps) == 0 {
		if cur >= 0 {
			_, text, st := r.planStep(p.Steps[cur], true)
			head += t.Muted.Render(" · ") + st.Render(text)
		}
		return []string{withHint(head)}
	}
	room := maxLines - 1
	start := 0
	if cur > 0 {
		start = cur - 1
	}
	if cur < 0 {
		start = len(p.Steps) // all done: the last ones
	}
	start = max(0, min(start, len(p.Steps)-room))
	end := min(len(p.Steps), start+room)
	if hidden := len(p.Steps) - (end - start); hidden > 0 {
		head += t.Muted.Render(fmt.Sprintf(" · %d more", hidden))
	}
	lines := []string{withHint(head)}
	for _, s := range p.Steps[start:end] {
		mark, text, st := r.planStep(s, true)
		lines = append(lines, clamp("   "+st.Render(mark+" "+text), width))
	}
	return lines
}

// writePlanMarkdown exports a plan as a task list: completed steps
// checked, the step in progress marked so, then the explanation.
func writePlanMarkdown(b *strings.Builder, it *model.Item, status string) {
	p := it.PlanOf()
	fmt.Fprintf(b, "## Plan (%s)%s\n\n", PlanProgress(p), status)
	if len(p.Steps) == 0 {
		b.WriteString("_No steps._\n")
	}
	for _, s := range p.Steps {
		b.WriteString(planStepPlain(s) + "\n")
	}
	if e := termtext.Text(p.Explanation); e != "" {
		fmt.Fprintf(b, "\n%s\n", e)
	}
}

// planStepPlain is one step as a markdown task list line: "- [x] text",
// "- [ ] text", and "- [ ] text (in progress)".
func planStepPlain(s model.PlanStep) string {
	switch s.Status {
	case model.StepCompleted:
		return "- [x] " + termtext.Line(s.Text)
	case model.StepInProgress:
		return "- [ ] " + termtext.Line(s.Text) + " (in progress)"
	}
	return "- [ ] " + termtext.Line(s.Text)
}
