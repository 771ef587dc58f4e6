package render

import (
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// pendingLabel is the state a pending prompt shows beside "You".
func pendingLabel(s model.PendingStatus) string {
	switch s {
	case model.PendingSending:
		return "sending…"
	case model.PendingQueued:
		return "queued"
	case model.PendingRetrying:
		return "retrying…"
	case model.PendingStarted:
		return "starting…"
	}
	if s == "" {
		return "pending"
	}
	return termtext.Line(string(s))
}

// Pending renders one of this client's own in-flight prompts: laid out
// like a user message but dimmed, with its state (sending, queued,
// retrying, starting) beside the label. Pending entries are few and
// short-lived, so this is not cached. Every line fits width cells.
func (r *Renderer) Pending(p model.PendingEntry, width int) []string {
	if width < 1 {
		width = 1
	}
	t := r.theme
	label := t.Pending.Render("You") + t.Faint.Render(" · ") + t.Pending.Render(pendingLabel(p.Status))
	lines := r.prompt(t.Faint.Render("┃"), label, t.Pending, p.Text, contentWidth(width))
	out, _ := r.frame(lines, width, ItemOptions{})
	return out
}
