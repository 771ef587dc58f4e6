package render

import (
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// FailedPrompt renders one of this client's prompts that the host did not
// run (rejected, or its turn failed to launch): laid out like a user
// message with a bar in the error colour, "You · ✗ <verdict>", the text as
// typed, then the reason (wrapped, in the error colour) and hint (how to
// take the text back) on a muted line. reason comes from the host
// (termtext.Text); verdict and hint are the caller's own text. Not cached
// (few, and short-lived). Every line fits width cells.
func (r *Renderer) FailedPrompt(p model.PendingEntry, verdict, reason, hint string, width int) []string {
	return r.failedPrompt(p, FailedNote{Verdict: verdict, Reason: reason, Hint: hint}, width, ItemOptions{})
}

func (r *Renderer) failedPrompt(p model.PendingEntry, f FailedNote, width int, o ItemOptions) []string {
	if width < 1 {
		width = 1
	}
	t := r.theme
	cw := contentWidth(width)
	bar, pre, inner := t.Error.Render("┃"), t.Error.Render("┃")+" ", cw-2
	if cw < 4 {
		pre, inner = "", cw
	}
	label := t.UserLabel.Render("You") + t.Faint.Render(" · ") + t.Error.Render("✗ "+f.Verdict)
	lines := r.prompt(bar, label, t.UserText, p.Text, cw)
	if reason := termtext.Text(f.Reason); reason != "" {
		lines = append(lines, prefixLines(pre, pre, styleLines(t.Error, wrapPlain(reason, inner)))...)
	}
	if f.Hint != "" {
		lines = append(lines, pre+clamp(t.Muted.Render(f.Hint), inner))
	}
	out, _ := r.frame(lines, width, o)
	return out
}
