package tui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// steerAction is what the steer key does with the composer's text.
type steerAction int

const (
	steerNothing  steerAction = iota // nothing typed
	steerSend                        // no turn runs: an ordinary prompt
	steerRefuse                      // the agent takes no input mid-turn: keep the draft, say so
	steerIntoTurn                    // into the running turn
)

// steerStep decides the steer key: pure, for its table.
func steerStep(text string, turnRuns, agentSteers bool) steerAction {
	switch {
	case strings.TrimSpace(text) == "":
		return steerNothing
	case !turnRuns:
		return steerSend
	case !agentSteers:
		return steerRefuse
	}
	return steerIntoTurn
}

// steer sends the composer's text into the running turn, where the agent
// takes it; with no turn running it is an ordinary send.
func (m *Model) steer() tea.Cmd {
	text := m.comp.value()
	runs := m.snap.View != nil && m.snap.View.ActiveTurn != nil
	switch steerStep(text, runs, m.snap.Steer) {
	case steerNothing:
		return nil
	case steerSend:
		return m.send()
	case steerRefuse:
		m.setNotice("not sent: this agent takes no input into a running turn · "+bindingKeys(m.km.Composer.Send)+" queues it", true)
		return m.expireNotice()
	}
	m.comp.remember(text)
	m.comp.clear()
	m.tr.toBottom()
	m.pace.lastInput = time.Time{}
	src := m.src
	m.setNotice("sent into the running turn", false)
	return tea.Batch(func() tea.Msg { src.Steer(text); return nil }, m.expireNotice())
}
