package tui

import (
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/lookout-sh/lookout/termtext"
)

// editorCommand is the command line that edits a file, the file's path
// appended: $VISUAL, else $EDITOR (either may carry arguments, as in
// "code --wait"), else vi.
func editorCommand(getenv func(string) string) []string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if f := strings.Fields(getenv(v)); len(f) > 0 {
			return f
		}
	}
	return []string{"vi"}
}

// editorFileText is what the editor's file holds for a draft: the draft
// as a text file, ending with a newline (an editor adds one, and a line
// appended by a tool lands on a line of its own). An empty draft is an
// empty file.
func editorFileText(draft string) string {
	if draft == "" {
		return ""
	}
	return draft + "\n"
}

// draftFromEditor is the draft a saved file gives: its text without the
// one final newline a text file ends with (\n or \r\n); any other
// trailing newline is the user's and stays.
func draftFromEditor(text string) string {
	if t, ok := strings.CutSuffix(text, "\n"); ok {
		return strings.TrimSuffix(t, "\r")
	}
	return text
}

// editorReadyMsg: the draft is in a temporary file, ready for the editor.
type editorReadyMsg struct {
	argv []string
	path string
	err  error
}

// editorDoneMsg: the editor exited; text is the file's content.
type editorDoneMsg struct {
	text string
	err  error
}

// openEditor writes the draft to a temporary file (in a command, not in
// Update) and then runs the editor on it with the terminal handed over
// (tea.ExecProcess); the edited text comes back to the composer.
func (m *Model) openEditor() tea.Cmd {
	draft := m.comp.value()
	argv := editorCommand(os.Getenv)
	return func() tea.Msg {
		f, err := os.CreateTemp("", "lookout-prompt-*.md")
		if err != nil {
			return editorReadyMsg{err: err}
		}
		_, err = f.WriteString(editorFileText(draft))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(f.Name())
			return editorReadyMsg{err: err}
		}
		return editorReadyMsg{argv: argv, path: f.Name()}
	}
}

// runEditor hands the terminal to the editor; once it exits the file is
// read back and removed.
func (m *Model) runEditor(msg editorReadyMsg) tea.Cmd {
	if msg.err != nil {
		m.setNotice("cannot start the editor: "+termtext.VisibleLine(msg.err.Error()), true)
		return m.expireNotice()
	}
	path := msg.path
	c := exec.Command(msg.argv[0], append(msg.argv[1:], path)...)
	return tea.ExecProcess(c, func(err error) tea.Msg {
		b, rerr := os.ReadFile(path)
		os.Remove(path)
		if err == nil {
			err = rerr
		}
		return editorDoneMsg{text: string(b), err: err}
	})
}

// editorDone puts the edited text in the composer; when the editor failed
// the draft stays as it was.
func (m *Model) editorDone(msg editorDoneMsg) tea.Cmd {
	if msg.err != nil {
		m.setNotice("editor: "+termtext.VisibleLine(msg.err.Error())+" · draft unchanged", true)
		return m.expireNotice()
	}
	m.comp.setValue(draftFromEditor(msg.text))
	m.setNotice("draft from the editor · enter sends", false)
	return tea.Batch(m.focusComposer(), m.expireNotice())
}
