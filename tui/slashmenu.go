package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/termtext"
)

// slashState is the completion list's and the unknown-command question's
// state; the decisions are in slash.go.
type slashState struct {
	sel       int    // the highlighted entry of the filtered list
	closedFor string // the composer text esc closed the list for: it stays closed until the text changes
	ask       string // a /word nobody offers, waiting for "send it as text?"
}

// maxSlashRows is the most entries the list shows at once; it shrinks to
// leave the transcript at least minTranscriptRows on a short screen.
const (
	maxSlashRows      = 8
	minTranscriptRows = 3
)

// slashContext is what decideSlash needs from the session and the host.
func (m *Model) slashContext() slashContext {
	cmds, known := agentCommands(m.view)
	// A session no real agent runs (the demo's: no "agent" value) offers
	// nothing, and will not say so.
	known = known || m.view != nil && m.agentName() == ""
	return slashContext{agent: cmds, agentKnown: known, hostRuns: m.snap.AgentCommands}
}

// slashList is the filtered completion list, while it is open: the
// composer is focused with no overlay or question, its text is a "/" and
// a name being typed, esc did not close it for this text, and something
// matches.
func (m *Model) slashList() ([]slashEntry, bool) {
	if m.focus != focusComposer || m.overlay != overlayNone || m.deny.open || m.confirmQuit || m.srch.editing || m.asking() {
		return nil, false
	}
	text := m.comp.value()
	q, ok := slashQuery(text)
	if !ok || text == m.slash.closedFor {
		return nil, false
	}
	cmds, _ := agentCommands(m.view)
	list := filterSlash(slashEntries(cmds), q)
	if len(list) == 0 {
		return nil, false
	}
	m.slash.sel = min(max(m.slash.sel, 0), len(list)-1)
	return list, true
}

// slashKey handles a key while the list is open or the question waits;
// handled false passes the key on to the composer.
func (m *Model) slashKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	ck := m.km.Commands
	if m.asking() {
		line := m.slash.ask
		m.slash.ask = ""
		m.clearNotice()
		if key.Matches(msg, ck.Confirm) {
			return m.sendText(line, ""), true
		}
		m.setNotice("kept "+firstWord(line)+" in the composer: nothing was sent", false)
		return m.expireNotice(), true
	}
	m.slash.ask = ""
	list, open := m.slashList()
	if !open {
		return nil, false
	}
	switch {
	case key.Matches(msg, ck.Prev):
		m.slash.sel = (m.slash.sel - 1 + len(list)) % len(list)
	case key.Matches(msg, ck.Next):
		m.slash.sel = (m.slash.sel + 1) % len(list)
	case key.Matches(msg, ck.Accept):
		m.comp.setValue("/" + list[m.slash.sel].name + " ")
		m.comp.ta.CursorEnd()
	case key.Matches(msg, ck.Run):
		line := "/" + list[m.slash.sel].name
		m.comp.setValue(line)
		return m.send(), true
	case key.Matches(msg, ck.Close):
		m.slash.closedFor = m.comp.value()
	default:
		m.slash.sel = 0 // the filter changes: the best match leads
		return nil, false
	}
	return nil, true
}

// sendLine sends the composer's line as decideSlash says: Lookout's own
// command runs here, an agent command goes as one, a refused one says why,
// an unknown /word asks first, anything else is a prompt.
func (m *Model) sendLine(text string) tea.Cmd {
	c := m.slashContext()
	d := decideSlash(text, c)
	switch d.action {
	case slashRunLookout:
		m.comp.remember(text)
		m.comp.clear()
		return m.runLookoutCommand(d.name)
	case slashRunAgent:
		return m.sendText(text, d.name)
	case slashNotOffered:
		m.setNotice(notOfferedWhy(d.name, m.agentName(), c), true)
		return m.expireNotice()
	case slashUnknown:
		m.slash.ask = text
		m.clearNotice()
		return nil
	}
	return m.sendText(text, "")
}

// agentName is the session's agent as its state names it.
func (m *Model) agentName() string {
	if m.view == nil {
		return ""
	}
	return termtext.Line(m.view.StringValue("agent"))
}

// runLookoutCommand does one of Lookout's own commands.
func (m *Model) runLookoutCommand(name string) tea.Cmd {
	switch name {
	case slashHelp:
		m.overlay, m.overlayOff = overlayHelp, 0
	case slashStatus:
		m.overlay, m.overlayOff = overlayStatus, 0
	case slashNew:
		return m.newSession()
	case slashSessions:
		return m.chooseSession()
	case slashExport:
		return m.export()
	}
	return nil
}

// asking reports whether the unknown-command question waits: it asks
// about the composer's text as it was, so a draft changed since (ctrl+c,
// a paste, history) asks nothing.
func (m *Model) asking() bool {
	return m.slash.ask != "" && m.slash.ask == m.comp.value() && m.focus == focusComposer
}

// slashQuestion is the composer rule while an unknown /word waits.
func (m *Model) slashQuestion() string {
	return firstWord(m.slash.ask) + " is not a command here: send it to the agent as text? " +
		m.km.Commands.Confirm.Help().Key + " sends · esc keeps it "
}

func firstWord(s string) string {
	if i := strings.IndexAny(s, " \t\n"); i >= 0 {
		s = s[:i]
	}
	return termtext.Line(s)
}

// slashMenuLines is the open list laid out in at most room lines of width
// cells, above the composer (it never covers the composer's text): one
// entry a line, "/name" then its description, the highlighted one marked;
// a last line says how many more match when they do not all fit.
func (m *Model) slashMenuLines(w, room int) []string {
	list, open := m.slashList()
	if !open || room <= 0 {
		return nil
	}
	rows := min(len(list), maxSlashRows, room)
	more := len(list) > rows
	if more && rows > 1 {
		rows-- // the last line counts the rest
	}
	first := min(max(0, m.slash.sel-rows+1), len(list)-rows)
	nameW := 0
	for _, e := range list[first : first+rows] {
		nameW = max(nameW, ansi.StringWidth(e.name)+1)
	}
	nameW = min(nameW, 24)
	out := make([]string, 0, rows+1)
	for i := first; i < first+rows; i++ {
		e := list[i]
		name := ansi.Truncate("/"+e.name, nameW, "…")
		name += strings.Repeat(" ", nameW-ansi.StringWidth(name))
		mark, style := "  ", m.theme.Text
		if i == m.slash.sel {
			mark, style = "› ", m.theme.Accent.Bold(true)
		}
		desc := e.description
		if e.origin == slashAgent && e.name != slashCompact {
			desc = "(agent) " + desc
		}
		line := mark + style.Render(name) + "  " + m.theme.Muted.Render(ansi.Truncate(desc, max(0, w-nameW-4), "…"))
		out = append(out, fit(line, w))
	}
	if more {
		out = append(out, fit(m.theme.Faint.Render("  "+itoa(len(list)-rows)+" more · ↑/↓ move · tab completes · enter runs · esc closes"), w))
	}
	return out
}
