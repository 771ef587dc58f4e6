package tui

import (
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
)

// handleKey routes a key press: help screen first, then the keys that
// work anywhere, then the focused area's keys.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	km := m.km
	m.dirty = true
	if m.confirmQuit {
		// Asked "discard the draft and quit?": y quits, any other key
		// keeps the draft and does nothing else.
		m.confirmQuit = false
		m.clearNotice()
		if msg.String() == "y" {
			return tea.Quit
		}
		m.setNotice("kept the draft", false)
		return m.expireNotice()
	}
	if key.Matches(msg, km.Global.Quit) {
		return m.ctrlC()
	}
	if m.quitArmed {
		m.quitArmed = false
		m.clearNotice()
	}
	if m.srch.editing {
		return m.searchKey(msg)
	}
	switch m.overlay {
	case overlayHelp:
		if key.Matches(msg, km.Help.Close) {
			m.overlay = overlayNone
			return nil
		}
		m.scrollOverlay(msg)
		return nil
	case overlayDiagnostics:
		switch {
		case key.Matches(msg, km.Global.Diagnostics) || msg.String() == "esc" || msg.String() == "q":
			m.overlay = overlayNone
		case key.Matches(msg, km.Global.Help):
			m.overlay, m.overlayOff = overlayHelp, 0
		default:
			m.scrollOverlay(msg)
		}
		return nil
	}
	composing := m.focus == focusComposer
	emptyComposer := composing && m.comp.empty()

	if msg.String() == "esc" && m.srch.query != "" && (!composing || emptyComposer) {
		// Esc first ends a search that is stepping through matches (its
		// highlights and its rule), before it interrupts or moves focus.
		m.srch.stop()
		return nil
	}
	switch {
	case key.Matches(msg, km.Global.Help) && (!composing || emptyComposer || msg.String() == "f1"):
		m.overlay, m.overlayOff = overlayHelp, 0
		return nil
	case key.Matches(msg, km.Global.Diagnostics) && (!composing || emptyComposer || msg.String() == "f2"):
		m.openDiagnostics()
		return nil
	case key.Matches(msg, km.Global.FocusNext):
		if composing {
			m.focusTranscript()
			m.tr.selectBottom()
			return nil
		}
		return m.focusComposer()
	case key.Matches(msg, km.Global.Interrupt) && m.turnRunning():
		m.setTurnNotice("interrupting the running turn…", m.view.ActiveTurn.TurnID)
		return tea.Batch(call(m.src.Interrupt), m.expireNotice())
	case key.Matches(msg, km.Global.PageUp):
		m.tr.scroll(-m.tr.page())
		return nil
	case key.Matches(msg, km.Global.PageDown):
		m.tr.scroll(m.tr.page())
		return nil
	case key.Matches(msg, km.Global.Retry):
		return m.retry()
	case key.Matches(msg, km.Global.Approve):
		return m.respond("approve")
	case key.Matches(msg, km.Global.Deny):
		return m.respond("deny")
	case key.Matches(msg, km.Global.ApproveAll):
		return m.respond("approveForSession")
	case key.Matches(msg, km.Global.Unqueue):
		return m.unqueue()
	case key.Matches(msg, km.Global.MouseTrack):
		return m.toggleMouse()
	case key.Matches(msg, km.Global.Sessions):
		return m.chooseSession()
	case key.Matches(msg, km.Global.TakeBack):
		return m.takeBack()
	case key.Matches(msg, km.Global.PromptPrev):
		m.focusTranscript()
		return m.jumpPrompt(-1)
	case key.Matches(msg, km.Global.PromptNext):
		m.focusTranscript()
		return m.jumpPrompt(1)
	case key.Matches(msg, km.Global.Export):
		return m.export()
	case key.Matches(msg, km.Global.Editor):
		return m.openEditor()
	case key.Matches(msg, km.Global.Search) && m.overlay == overlayNone:
		return m.openSearch()
	}
	if composing {
		return m.composerKey(msg)
	}
	return m.transcriptKey(msg)
}

func (m *Model) turnRunning() bool { return m.view != nil && m.view.ActiveTurn != nil }

// ctrlC follows ctrlCStep: interrupt a running turn, then clear a draft
// (into history), arming quitting; ctrl+c again with nothing left to lose
// quits.
func (m *Model) ctrlC() tea.Cmd {
	step := ctrlCStep(m.quitArmed, m.turnRunning(), !m.comp.empty())
	if step == ctrlCQuit {
		return tea.Quit
	}
	m.quitArmed = true
	m.quitGen++
	gen := m.quitGen
	expire := m.after(3*time.Second, func(time.Time) tea.Msg { return quitExpiredMsg{gen} })
	next := "quits"
	if !m.comp.empty() && step != ctrlCClear {
		next = "clears the draft"
	}
	switch step {
	case ctrlCInterrupt:
		m.setTurnNotice("interrupting · ctrl+c again "+next, m.view.ActiveTurn.TurnID)
		return tea.Batch(call(m.src.Interrupt), expire)
	case ctrlCClear:
		m.comp.remember(m.comp.value())
		m.comp.clear()
		m.setNotice("draft cleared (↑ in the composer brings it back) · ctrl+c again quits", false)
		return expire
	}
	m.setNotice("ctrl+c again quits", false)
	return expire
}

// guarded runs a transcript letter's action through draftGate: with a
// draft waiting, approving and unqueueing letters only say which
// deliberate key does it, and q asks before discarding the draft.
func (m *Model) guarded(action, letter, alt string, act func() tea.Cmd) tea.Cmd {
	switch draftGate(action, !m.comp.empty()) {
	case gateRefuse:
		// Most important first: the status bar may cut the end.
		m.setNotice(alt+" ("+letter+" is off while a draft waits)", true)
		return m.expireNotice()
	case gateConfirm:
		// Asked on the composer's rule, where the answer is typed.
		m.confirmQuit = true
		m.clearNotice()
		return nil
	}
	return act()
}

func (m *Model) composerKey(msg tea.KeyPressMsg) tea.Cmd {
	km := m.km
	switch {
	case key.Matches(msg, km.Composer.Send):
		return m.send()
	case key.Matches(msg, km.Composer.HistoryPrev) && m.sessionPrompts() && m.comp.historyPrev():
		return nil
	case key.Matches(msg, km.Composer.HistoryNext) && m.comp.historyNext():
		return nil
	case key.Matches(msg, km.Composer.Top) && m.comp.empty():
		m.tr.toTop()
		return nil
	case key.Matches(msg, km.Composer.Bottom) && m.comp.empty():
		m.tr.toBottom()
		return nil
	case key.Matches(msg, km.Global.Interrupt) && m.comp.empty():
		// Nothing runs: esc moves to the transcript.
		m.focusTranscript()
		return nil
	}
	return m.comp.update(msg)
}

// send submits the composer's text and follows the transcript.
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
	m.comp.remember(text)
	m.comp.clear()
	m.tr.toBottom()
	src := m.src
	return func() tea.Msg { src.Submit(text); return nil }
}

func (m *Model) transcriptKey(msg tea.KeyPressMsg) tea.Cmd {
	km := m.km
	switch {
	case key.Matches(msg, km.Transcript.Quit):
		return m.guarded("quit", "q", "", func() tea.Cmd { return tea.Quit })
	case key.Matches(msg, km.Transcript.SelectPrev):
		m.tr.move(-1)
	case key.Matches(msg, km.Transcript.SelectNext):
		m.tr.move(1)
	case key.Matches(msg, km.Transcript.LineUp):
		m.tr.scroll(-1)
	case key.Matches(msg, km.Transcript.LineDown):
		m.tr.scroll(1)
	case key.Matches(msg, km.Transcript.HalfUp):
		m.tr.scroll(-m.tr.halfPage())
	case key.Matches(msg, km.Transcript.HalfDown):
		m.tr.scroll(m.tr.halfPage())
	case key.Matches(msg, km.Transcript.Top):
		m.tr.toTop()
	case key.Matches(msg, km.Transcript.Bottom):
		m.tr.toBottom()
	case key.Matches(msg, km.Transcript.Toggle):
		m.tr.toggleSelected()
	case key.Matches(msg, km.Transcript.PromptPrev):
		return m.jumpPrompt(-1)
	case key.Matches(msg, km.Transcript.PromptNext):
		return m.jumpPrompt(1)
	case key.Matches(msg, km.Transcript.Search):
		return m.openSearch()
	case key.Matches(msg, km.Transcript.SearchPrev) && m.srch.query != "":
		return m.findMatch(m.searchFrom(-1), -1)
	case key.Matches(msg, km.Transcript.SearchNext) && m.srch.query != "":
		return m.findMatch(m.searchFrom(1), 1)
	case key.Matches(msg, km.Transcript.Export):
		return m.export()
	case key.Matches(msg, km.Transcript.ExpandAll):
		m.tr.setAllExpanded(true)
	case key.Matches(msg, km.Transcript.CollapseAll):
		m.tr.setAllExpanded(false)
	case key.Matches(msg, km.Transcript.Copy):
		return m.copySelected()
	case key.Matches(msg, km.Transcript.Approve):
		return m.guarded("approve", msg.String(), bindingKeys(km.Global.Approve)+" approves", func() tea.Cmd { return m.respond("approve") })
	case key.Matches(msg, km.Transcript.Deny):
		return m.guarded("deny", msg.String(), bindingKeys(km.Global.Deny)+" denies", func() tea.Cmd { return m.respond("deny") })
	case key.Matches(msg, km.Transcript.ApproveAll):
		return m.guarded("approveForSession", msg.String(), bindingKeys(km.Global.ApproveAll)+" approves for the session",
			func() tea.Cmd { return m.respond("approveForSession") })
	case key.Matches(msg, km.Transcript.Unqueue):
		return m.guarded("unqueue", msg.String(), bindingKeys(km.Global.Unqueue)+" unqueues", m.unqueue)
	case key.Matches(msg, km.Transcript.TakeBack):
		return m.takeBack()
	case key.Matches(msg, km.Transcript.MouseTrack):
		return m.toggleMouse()
	case key.Matches(msg, km.Transcript.Retry):
		return m.retry()
	case key.Matches(msg, km.Transcript.Compose):
		return m.focusComposer()
	case key.Matches(msg, km.Transcript.ClearSelect):
		return m.focusComposer()
	}
	return nil
}

func (m *Model) retry() tea.Cmd {
	if st := m.snap.Freshness.State; st != sync.Error && st != sync.Reconnecting {
		m.setNotice("nothing to retry: "+string(st), false)
		return m.expireNotice()
	}
	m.setNotice("retrying…", false)
	return tea.Batch(call(m.src.Retry), m.expireNotice())
}

// respond answers the first waiting approval.
func (m *Model) respond(decision string) tea.Cmd {
	if m.view == nil || len(m.view.Approvals) == 0 {
		m.setNotice("no tool is waiting for approval", true)
		return m.expireNotice()
	}
	a := m.view.Approvals[0]
	src := m.src
	if !offers(a, decision) {
		m.setNotice("this approval does not offer "+decisionWords[decision], true)
		return m.expireNotice()
	}
	turn := a.TurnID
	if turn == "" && m.turnRunning() {
		turn = m.view.ActiveTurn.TurnID
	}
	m.setTurnNotice(decisionDone[decision]+": "+termtext.VisibleLine(firstLine(a.Summary)), turn)
	return tea.Batch(func() tea.Msg { src.Respond(a.ApprovalID, decision); return nil }, m.expireNotice())
}

// unqueue takes back the selected pending prompt when it is queued, else
// the newest queued one. Its text returns to the composer when the host
// confirms (turn/unqueued), through the source's Returned list.
func (m *Model) unqueue() tea.Cmd {
	cid := ""
	if row, ok := m.tr.selectedRow(); ok && row.Pending != nil && row.Pending.Status == model.PendingQueued {
		cid = row.Pending.CommandID
	}
	if cid == "" && m.view != nil {
		if n := len(m.view.QueuedTurns); n > 0 {
			cid = m.view.QueuedTurns[n-1].CommandID
		}
	}
	if cid == "" && m.view != nil {
		for i := len(m.view.Pending) - 1; i >= 0; i-- {
			if m.view.Pending[i].Status == model.PendingQueued {
				cid = m.view.Pending[i].CommandID
				break
			}
		}
	}
	if cid == "" {
		m.setNotice("no queued prompt to unqueue", true)
		return m.expireNotice()
	}
	src := m.src
	m.setNotice("unqueueing…", false)
	return tea.Batch(func() tea.Msg { src.Unqueue(cid); return nil }, m.expireNotice())
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

// decisionWords and decisionDone name approval decisions for notices.
var (
	decisionWords = map[string]string{"approve": "approve", "deny": "deny", "approveForSession": "approval for the session"}
	decisionDone  = map[string]string{"approve": "approved", "deny": "denied", "approveForSession": "approved for the session"}
)

// offers reports whether an approval lets the user decide d. An approval
// that lists no options offers approve and deny (docs/protocol.md).
func offers(a model.Approval, d string) bool {
	if len(a.Options) == 0 {
		return d == "approve" || d == "deny"
	}
	return slices.Contains(a.Options, d)
}

// openDiagnostics shows the diagnostics view at its end (the newest).
func (m *Model) openDiagnostics() {
	m.overlay, m.overlayOff = overlayDiagnostics, 1<<30
	m.dirty = true
}
