package tui

import (
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
	"github.com/lookout-sh/lookout/themes"
)

// denyInput is the one-line reason a deny key asks for: what the agent
// should do instead. Enter denies with it (empty is fine), esc goes back
// to the approval with nothing sent. While it is open it takes the keys.
type denyInput struct {
	open       bool
	approvalID string // the approval it answers
	text       string
}

// openDenyReason opens the reason line for the first waiting approval.
func (m *Model) openDenyReason() tea.Cmd {
	a, _, ok := m.firstApproval()
	if !ok {
		m.setNotice("no tool is waiting for approval", true)
		return m.expireNotice()
	}
	m.deny = denyInput{open: true, approvalID: a.ApprovalID}
	m.clearNotice()
	return nil
}

// denyKey edits the reason, sends the deny (enter) or goes back (esc).
func (m *Model) denyKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "enter":
		return m.sendDeny()
	case "esc":
		m.deny = denyInput{}
		m.setNotice("not denied: the approval still waits", false)
		return m.expireNotice()
	case "backspace":
		if _, n := utf8.DecodeLastRuneInString(m.deny.text); n > 0 {
			m.deny.text = m.deny.text[:len(m.deny.text)-n]
		}
		return nil
	case "ctrl+u":
		m.deny.text = ""
		return nil
	}
	if msg.Text != "" && msg.Mod&^tea.ModShift == 0 {
		return m.addDenyText(msg.Text)
	}
	return nil
}

// addDenyText appends typed or pasted text as one line, refusing what
// would pass the host's bound (model.MaxReasonBytes).
func (m *Model) addDenyText(s string) tea.Cmd {
	s = oneLine(s)
	if len(m.deny.text)+len(s) > model.MaxReasonBytes {
		m.setNotice("the reason is at its limit ("+itoa(model.MaxReasonBytes)+" bytes)", true)
		return m.expireNotice()
	}
	m.deny.text += s
	return nil
}

// sendDeny denies the approval the line was opened for, with the reason.
func (m *Model) sendDeny() tea.Cmd {
	d := m.deny
	m.deny = denyInput{}
	a, _, ok := m.firstApproval()
	if !ok || a.ApprovalID != d.approvalID {
		m.setNotice("not sent: that approval was answered meanwhile", true)
		return m.expireNotice()
	}
	m.closeReview()
	reason := strings.TrimSpace(d.text)
	src := m.src
	cmd := m.answered(a, model.DecisionDeny)
	return tea.Batch(func() tea.Msg { src.Deny(a.ApprovalID, reason); return nil }, cmd)
}

// dropStaleDeny closes the reason line when its approval is no longer the
// one waiting (answered elsewhere, or cancelled): nothing is sent.
func (m *Model) dropStaleDeny() {
	if !m.deny.open {
		return
	}
	if a, _, ok := m.firstApproval(); ok && a.ApprovalID == m.deny.approvalID {
		return
	}
	m.deny = denyInput{}
	m.setNotice("reason not sent: the approval was answered elsewhere", true)
}

// oneLine turns line breaks and tabs into spaces and drops other
// controls (termtext.Line).
func oneLine(s string) string { return termtext.Line(strings.ReplaceAll(s, "\t", " ")) }

// denyLines are the approval bar's lines while the reason is asked: the
// reason as typed (its end, when it is wider than the bar) and what
// enter and esc do.
func denyLines(t themes.Theme, reason string, width int) []string {
	prefix := "  deny · tell the agent what to do instead: "
	room := max(width-len(prefix)-1, 8)
	shown := termtext.VisibleLine(reason)
	for ansi.StringWidth(shown) > room {
		// Its end shows, where the typing is.
		_, n := utf8.DecodeRuneInString(strings.TrimPrefix(shown, "…"))
		shown = "…" + strings.TrimPrefix(shown, "…")[n:]
	}
	return []string{
		fit(t.Warning.Render(prefix)+t.Text.Render(shown)+t.Accent.Render("▏"), width),
		fit("  "+t.StatusKey.Render("enter")+t.Muted.Render(" denies (no reason is fine)  ")+
			t.StatusKey.Render("esc")+t.Muted.Render(" back to the approval"), width),
	}
}
