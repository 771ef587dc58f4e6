package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/render"
	"github.com/lookout-sh/lookout/termtext"
)

// The review shows the first waiting approval whole, when it is taller
// than the transcript's window: its summary, then its item's card
// expanded, scrollable, above the approval bar. An approve key there
// pages on until every line has been on screen, then answers.

// firstApproval is the first waiting approval and its item (nil when the
// view does not hold it).
func (m *Model) firstApproval() (model.Approval, *model.Item, bool) {
	if m.view == nil || len(m.view.Approvals) == 0 {
		return model.Approval{}, nil, false
	}
	a := m.view.Approvals[0]
	return a, m.view.ItemByID(a.ItemID), true
}

// reviewTitle names what is reviewed, whether approving may act yet,
// and how to leave.
func (m *Model) reviewTitle(a model.Approval, it *model.Item, seen bool) string {
	what := "the approval"
	if it != nil {
		what = approvalTool(it)
	}
	state := " · read to the end to approve · esc back"
	if seen {
		state = " · all of it shown: " + bindingKeys(m.km.Global.Approve) + " approves · esc back"
	}
	return " " + m.theme.Warning.Render("Review before approving: "+what) + m.theme.Muted.Render(state)
}

// reviewBody is the review's lines at width: the summary wrapped whole,
// a blank line, then the item's card expanded. Host text shows every
// character (termtext.Visible), so nothing in it can hide the rest.
func (m *Model) reviewBody(a model.Approval, it *model.Item, width int) []string {
	summary := termtext.Visible(strings.TrimSpace(a.Summary))
	if summary == "" {
		summary = "(no summary)"
	}
	var out []string
	for _, l := range strings.Split(ansi.Wrap(summary, max(width-2, 1), ""), "\n") {
		out = append(out, "  "+m.theme.Text.Render(l))
	}
	if it != nil {
		out = append(out, "")
		out = append(out, m.r.Item(it, width, render.ItemOptions{Expanded: true})...)
	}
	return out
}

// openReview shows the review at its top and says what approving takes.
func (m *Model) openReview(a model.Approval) tea.Cmd {
	m.overlay, m.overlayOff, m.reviewID = overlayReview, 0, a.ApprovalID
	m.setNotice("read it all first · "+bindingKeys(m.km.Global.Approve)+" pages on, then approves", true)
	return m.expireNotice()
}

// reviewMore shows the review's next page.
func (m *Model) reviewMore() tea.Cmd {
	m.overlayOff += max(1, m.reviewRoom)
	m.setNotice("not approved yet · "+bindingKeys(m.km.Global.Approve)+" pages on, then approves", true)
	return m.expireNotice()
}

// closeReview leaves the review for the transcript.
func (m *Model) closeReview() {
	if m.overlay == overlayReview {
		m.overlay, m.overlayOff = overlayNone, 0
	}
	m.reviewID = ""
}

// reviewKey handles a key while the review is open: the approval keys,
// esc or q to go back, and the page's scroll keys.
func (m *Model) reviewKey(msg tea.KeyPressMsg) tea.Cmd {
	km := m.km
	letters := m.focus == focusTranscript // letters answer only where they would in the transcript
	switch {
	case key.Matches(msg, km.Global.Approve) || letters && key.Matches(msg, km.Transcript.Approve):
		return m.respond(model.DecisionApprove)
	case key.Matches(msg, km.Global.ApproveAll) || letters && key.Matches(msg, km.Transcript.ApproveAll):
		return m.respond(model.DecisionApproveForSession)
	case key.Matches(msg, km.Global.Deny) || letters && key.Matches(msg, km.Transcript.Deny):
		return m.openDenyReason()
	case msg.String() == "esc" || msg.String() == "q":
		m.closeReview()
		m.setNotice("not answered: the approval still waits", false)
		return m.expireNotice()
	}
	m.scrollOverlay(msg)
	return nil
}

// layReview lays the review out in height lines of width and records
// which of its lines are on screen.
func (m *Model) layReview(width, height int) []string {
	a, it, ok := m.firstApproval()
	if !ok {
		m.closeReview()
		return nil
	}
	body := m.reviewBody(a, it, width)
	// The window pageLines will show: its offset clamped as it clamps it.
	m.reviewRoom = pageRoom(len(body), height)
	m.overlayOff = min(max(m.overlayOff, 0), max(0, len(body)-m.reviewRoom))
	k := sightKeyOf(a, it, width)
	m.sight.shownLines(k, m.overlayOff, m.overlayOff+m.reviewRoom, len(body))
	var lines []string
	lines, m.overlayOff = pageLines(m.theme, m.reviewTitle(a, it, m.sight.seenWhole(k)), body, m.overlayOff, width, height)
	return lines
}

// approvalTool names an approval's item for titles: its tool, or "file
// change".
func approvalTool(it *model.Item) string {
	if it.Kind == model.KindFileChange {
		return "file change"
	}
	if n := termtext.VisibleLine(it.ToolName()); n != "" {
		return n
	}
	return "the approval"
}

// sawApprovalInPlace records, after a transcript layout at width, whether
// the first waiting approval was on screen whole: its summary on the bar
// and every line of its item's card in the window.
func (m *Model) sawApprovalInPlace(width int) {
	a, it, ok := m.firstApproval()
	if !ok || !approvalSummaryFits(m.theme, m.view, width) {
		return
	}
	if it == nil || m.tr.showsWhole(it.ID) {
		m.sight.shownWhole(sightKeyOf(a, it, width))
	}
}

// approvalChanged follows a new picture: the transcript shows the first
// waiting approval's item expanded; a review or a reason line whose
// approval no longer waits first closes, sending nothing.
func (m *Model) approvalChanged() {
	a, it, ok := m.firstApproval()
	m.tr.mustShow = ""
	if ok && it != nil {
		m.tr.mustShow = it.ID
	}
	m.dropStaleDeny()
	if m.overlay == overlayReview && (!ok || a.ApprovalID != m.reviewID) {
		m.closeReview()
		m.setNotice("the approval under review was answered elsewhere", true)
	}
}
