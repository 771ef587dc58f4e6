package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/lookout-sh/lookout/sync"
)

// SwitchSession reports, after the program ended, whether the user asked
// for the session picker (keymap Global.Sessions) rather than to quit.
func (m *Model) SwitchSession() bool { return m.switchSession }

// Draft is the composer's text (for the next session's Options.Draft).
func (m *Model) Draft() string { return m.comp.value() }

// sessionMissing reports whether the host does not know the session (or
// has none): a final state (sync stops retrying in the background), in
// which nothing can be sent.
func (m *Model) sessionMissing() bool {
	f := m.snap.Freshness
	return f.State == sync.Error && f.Reason == sync.ReasonNoSession
}

// chooseSession leaves for the session picker when the program offers one
// and nothing in flight would be lost: the draft goes along (Draft), but
// a prompt this client is still sending must reach the host first.
func (m *Model) chooseSession() tea.Cmd {
	if !m.opts.OfferSessions {
		m.setNotice("no session list here: run lookout attach to choose a session", true)
		return m.expireNotice()
	}
	if !m.sessionMissing() && m.view != nil && len(m.view.Pending) > 0 {
		m.setNotice("a prompt is still being sent: wait until it is in the transcript", true)
		return m.expireNotice()
	}
	m.switchSession = true
	return tea.Quit
}

// NewSessionAsked reports, after the program ended, whether the user asked
// for a new session of the same host (/new); the caller starts it.
func (m *Model) NewSessionAsked() bool { return m.newAsked }

// newSession leaves this session for a new one on the same host, and so
// of the same agent (a host runs one agent). Only where the UI may leave
// its session (Options.OfferSessions).
func (m *Model) newSession() tea.Cmd {
	if !m.opts.OfferSessions {
		m.setNotice("no new session here: run lookout attach, or lookout send --new", true)
		return m.expireNotice()
	}
	if !m.sessionMissing() && m.view != nil && len(m.view.Pending) > 0 {
		m.setNotice("a prompt is still being sent: wait until it is in the transcript", true)
		return m.expireNotice()
	}
	m.newAsked = true
	return tea.Quit
}
