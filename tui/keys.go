package tui

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/lookout-sh/lookout/model"
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
		kept := "kept the draft"
		if m.comp.empty() {
			kept = "still sending " + unsentWords(m.unsentPrompts())
		}
		m.setNotice(kept, false)
		return m.expireNotice()
	}
	if key.Matches(msg, km.Global.Quit) {
		return m.ctrlC()
	}
	if m.quitArmed {
		m.quitArmed = false
		m.clearNotice()
	}
	if m.deny.open {
		return m.denyKey(msg)
	}
	if it := m.questionHasKeys(); it != nil && !m.srch.editing {
		return m.questionKey(it, msg)
	}
	if m.srch.editing {
		return m.searchKey(msg)
	}
	switch m.overlay {
	case overlayReview:
		return m.reviewKey(msg)
	case overlayHelp, overlayStatus:
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
	if composing {
		// The command list and its question take their keys first (tab
		// completes there, esc closes it).
		if cmd, ok := m.slashKey(msg); ok {
			return cmd
		}
	}

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
		return m.respond(model.DecisionApprove)
	case key.Matches(msg, km.Global.Deny):
		return m.respond(model.DecisionDeny)
	case key.Matches(msg, km.Global.ApproveAll):
		return m.respond(model.DecisionApproveForSession)
	case key.Matches(msg, km.Global.Question):
		return m.reopenQuestion()
	case key.Matches(msg, km.Global.Plan):
		return m.togglePlan()
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
	switch step {
	case ctrlCInterrupt:
		m.setTurnNotice(ctrlCNotice(step, m.nextCtrlC(), m.unsentPrompts()), m.view.ActiveTurn.TurnID)
		return tea.Batch(call(m.src.Interrupt), expire)
	case ctrlCClear:
		m.comp.remember(m.comp.value())
		m.comp.clear()
	}
	m.setNotice(ctrlCNotice(step, m.nextCtrlC(), m.unsentPrompts()), m.unsentPrompts() > 0)
	return expire
}

// unsentPrompts counts this client's prompts the host has not taken yet
// (no answer to their turn/submit): quitting now would lose them.
func (m *Model) unsentPrompts() int {
	if m.view == nil {
		return 0
	}
	n := 0
	for _, p := range m.view.Pending {
		if !p.Acked {
			n++
		}
	}
	return n
}

// nextCtrlC is what the next ctrl+c does once armed, on what is left now.
func (m *Model) nextCtrlC() ctrlCAction {
	return ctrlCStep(true, m.turnRunning(), !m.comp.empty())
}

// guarded runs a transcript letter's action through draftGate: with a
// draft waiting, approving and unqueueing letters only say which
// deliberate key does it, and q asks before discarding the draft.
func (m *Model) guarded(action, letter, alt string, act func() tea.Cmd) tea.Cmd {
	atStake := !m.comp.empty()
	if action == "quit" {
		atStake = atStake || m.unsentPrompts() > 0
	}
	switch draftGate(action, atStake) {
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
	case key.Matches(msg, km.Composer.Steer):
		return m.steer()
	case key.Matches(msg, km.Composer.HistoryPrev) && m.sessionPrompts() && m.comp.historyPrev():
		return nil
	case key.Matches(msg, km.Composer.HistoryNext) && m.comp.historyNext():
		return nil
	case key.Matches(msg, km.Composer.Top) && m.comp.empty():
		return m.toStart()
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
		return m.toStart()
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
		return m.guarded("approve", msg.String(), bindingKeys(km.Global.Approve)+" approves", func() tea.Cmd { return m.respond(model.DecisionApprove) })
	case key.Matches(msg, km.Transcript.Deny):
		return m.guarded("deny", msg.String(), bindingKeys(km.Global.Deny)+" denies", func() tea.Cmd { return m.respond(model.DecisionDeny) })
	case key.Matches(msg, km.Transcript.ApproveAll):
		return m.guarded("approveForSession", msg.String(), bindingKeys(km.Global.ApproveAll)+" approves for the session",
			func() tea.Cmd { return m.respond(model.DecisionApproveForSession) })
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
