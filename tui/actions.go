package tui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
)

// send sends the composer's text (sendLine: a prompt, or a slash
// command) and follows the transcript.
func (m *Model) send() tea.Cmd {
	text := m.comp.value()
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if m.sessionMissing() {
		// Nowhere to send it: keep the draft, say why and what to do.
		what := bindingKeys(m.km.Global.Retry) + " retries"
		if m.opts.OfferSessions {
			what = bindingKeys(m.km.Global.Sessions) + " chooses another session"
		}
		m.setNotice("not sent: this session does not exist on the host · "+what, true)
		return m.expireNotice()
	}
	return m.sendLine(text)
}

// sendText submits text: a prompt, or (agentCmd not "") the agent command
// it names; the composer empties and the transcript follows.
func (m *Model) sendText(text, agentCmd string) tea.Cmd {
	m.comp.remember(text)
	m.comp.clear()
	m.tr.toBottom()
	// Sending starts watching: the answer's frames need not keep the
	// typing's full rate (the next key repaints at once anyway).
	m.pace.lastInput = time.Time{}
	src := m.src
	if agentCmd != "" {
		return func() tea.Msg { src.SubmitCommand(text, agentCmd); return nil }
	}
	return func() tea.Msg { src.Submit(text); return nil }
}

func (m *Model) retry() tea.Cmd {
	if st := m.snap.Freshness.State; st != sync.Error && st != sync.Reconnecting {
		m.setNotice("nothing to retry: "+string(st), false)
		return m.expireNotice()
	}
	m.setNotice("retrying…", false)
	return tea.Batch(call(m.src.Retry), m.expireNotice())
}

// respond answers the first waiting approval. A deny asks for its reason
// first (denyreason.go); an approval answers only once all of it has been
// on screen (approvalsight.go), else it opens or pages the review.
func (m *Model) respond(decision model.Decision) tea.Cmd {
	a, it, ok := m.firstApproval()
	if !ok {
		m.setNotice("no tool is waiting for approval", true)
		return m.expireNotice()
	}
	if !a.Offers(decision) {
		m.setNotice("this approval does not offer "+decisionWords[decision], true)
		return m.expireNotice()
	}
	if decision == model.DecisionDeny {
		return m.openDenyReason()
	}
	seen := m.sight.seenWhole(sightKeyOf(a, it, max(m.width, 1)))
	switch approveStep(seen, m.overlay == overlayReview && m.reviewID == a.ApprovalID) {
	case approveReview:
		return m.openReview(a)
	case approveMore:
		return m.reviewMore()
	}
	m.closeReview()
	src := m.src
	return tea.Batch(func() tea.Msg { src.Respond(a.ApprovalID, decision); return nil }, m.answered(a, decision))
}

// answered says what was answered to a (or that it waits for the
// connection), until its turn ends.
func (m *Model) answered(a model.Approval, decision model.Decision) tea.Cmd {
	turn := a.TurnID
	if turn == "" && m.turnRunning() {
		turn = m.view.ActiveTurn.TurnID
	}
	notice := decisionDone[decision] + ": "
	if m.snap.Freshness.State != sync.Live {
		// The source keeps the answer and sends it once back: say only that.
		notice = notSentYet(decision) + " · "
	}
	m.setTurnNotice(notice+termtext.VisibleLine(firstLine(a.Summary)), turn)
	return m.expireNotice()
}

// unqueue takes back the selected pending prompt when it is queued, else
// the newest queued one. Its text returns to the composer when the host
// confirms (turn/unqueued), through the source's Returned list.
func (m *Model) unqueue() tea.Cmd {
	var selected *model.PendingEntry
	if row, ok := m.tr.selectedRow(); ok {
		selected = row.Pending
	}
	var queued []model.QueuedTurn
	var pending []model.PendingEntry
	if m.view != nil {
		queued, pending = m.view.QueuedTurns, m.view.Pending
	}
	cid := unqueuePick(selected, queued, pending)
	if cid == "" {
		m.setNotice("no queued prompt to unqueue", true)
		return m.expireNotice()
	}
	src := m.src
	m.setNotice("unqueueing…", false)
	return tea.Batch(func() tea.Msg { src.Unqueue(cid); return nil }, m.expireNotice())
}

// unqueuePick is the commandId unqueue takes back: the selected pending
// prompt when the host has queued it, else the newest turn the host holds
// queued, else the newest pending prompt known queued; "" when none is.
func unqueuePick(selected *model.PendingEntry, queued []model.QueuedTurn, pending []model.PendingEntry) string {
	if selected != nil && selected.Status == model.PendingQueued {
		return selected.CommandID
	}
	if n := len(queued); n > 0 {
		return queued[n-1].CommandID
	}
	for i := len(pending) - 1; i >= 0; i-- {
		if pending[i].Status == model.PendingQueued {
			return pending[i].CommandID
		}
	}
	return ""
}

func (m *Model) toggleMouse() tea.Cmd {
	m.mouse = !m.mouse
	if m.mouse {
		m.setNotice("mouse captured: the wheel scrolls", false)
	} else {
		m.setNotice("mouse released: select text natively · "+bindingKeys(m.km.Global.MouseTrack)+" captures it again", false)
	}
	return m.expireNotice()
}

// copySelected copies the selected row's plain text with OSC 52 and says
// so once the clipboard sequence has been handed to the terminal.
func (m *Model) copySelected() tea.Cmd {
	row, ok := m.tr.selectedRow()
	if !ok {
		m.setNotice("select a row first (↑/↓)", true)
		return m.expireNotice()
	}
	var text string
	if row.Item != nil {
		text = m.r.Plain(row.Item)
	} else {
		text = row.Pending.Text
	}
	n := len([]rune(text))
	return tea.Sequence(tea.SetClipboard(text), func() tea.Msg { return copiedMsg{n} })
}

// openDiagnostics shows the diagnostics view at its end (the newest).
func (m *Model) openDiagnostics() {
	m.overlay, m.overlayOff = overlayDiagnostics, 1<<30
	m.dirty = true
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + "…"
	}
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return s
}

// notSentYet says that an answer waits for the connection.
func notSentYet(d model.Decision) string {
	return "not sent yet (offline): " + decisionWords[d] + " goes to the host once it is back"
}

// owedAnswer is the answer given here to approvalID that the host has not
// confirmed, if any.
func owedAnswer(answers []sync.Answer, approvalID string) (sync.Answer, bool) {
	for _, a := range answers {
		if a.ApprovalID == approvalID {
			return a, true
		}
	}
	return sync.Answer{}, false
}

// decisionWords and decisionDone name approval decisions for notices.
var (
	decisionWords = map[model.Decision]string{model.DecisionApprove: "approve", model.DecisionDeny: "deny",
		model.DecisionApproveForSession: "approval for the session"}
	decisionDone = map[model.Decision]string{model.DecisionApprove: "approved", model.DecisionDeny: "denied",
		model.DecisionApproveForSession: "approved for the session"}
)
