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
// retrying, starting) beside the label. Not cached (PendingRow is). Every
// line fits width cells.
func (r *Renderer) Pending(p model.PendingEntry, width int) []string {
	return r.pending(p, width, ItemOptions{})
}

func (r *Renderer) pending(p model.PendingEntry, width int, o ItemOptions) []string {
	if width < 1 {
		width = 1
	}
	t := r.theme
	label := t.Pending.Render("You") + t.Faint.Render(" · ") + t.Pending.Render(pendingLabel(p.Status))
	lines := r.prompt(t.Faint.Render("┃"), label, t.Pending, p.Text, contentWidth(width))
	out, _ := r.frame(lines, width, o)
	return out
}

// FailedNote says why the host did not run a prompt, for FailedPrompt and
// PendingRow: the verdict ("not run", "rejected") and hint (how to take
// the text back) are the caller's own text, the reason comes from the host.
type FailedNote struct {
	Verdict, Reason, Hint string
}

// maxPendingRenders bounds the pending rows a Renderer keeps; past it the
// cache starts over (pending rows are few and short-lived).
const maxPendingRenders = 64

// pendingRender is one cached pending row.
type pendingRender struct {
	key   pendingKey
	lines []string
}

// pendingKey is what a pending row's lines depend on besides its
// commandId: an entry's text does not change while it is pending, so its
// length stands for it.
type pendingKey struct {
	status   model.PendingStatus
	textLen  int
	width    int
	selected bool
	failed   bool
	note     FailedNote
}

// PendingRow renders a transcript row that is not an item: one of this
// client's in-flight prompts (Pending) or, with failed set, one the host
// did not run (FailedPrompt). Only o.Selected applies: the selection
// marker in the gutter. Rows are cached by commandId and what they show;
// the returned slice is shared with the cache. Every line fits width
// cells.
func (r *Renderer) PendingRow(p model.PendingEntry, failed *FailedNote, width int, o ItemOptions) []string {
	key := pendingKey{status: p.Status, textLen: len(p.Text), width: width, selected: o.Selected, failed: failed != nil}
	if failed != nil {
		key.note = *failed
	}
	if c, ok := r.pendRows[p.CommandID]; ok && c.key == key {
		return c.lines
	}
	o = ItemOptions{Selected: o.Selected}
	var lines []string
	if failed != nil {
		lines = r.failedPrompt(p, *failed, width, o)
	} else {
		lines = r.pending(p, width, o)
	}
	if r.pendRows == nil || len(r.pendRows) > maxPendingRenders {
		r.pendRows = map[string]pendingRender{}
	}
	r.pendRows[p.CommandID] = pendingRender{key, lines}
	return lines
}
