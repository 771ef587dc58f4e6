package tui

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/lookout-sh/lookout/render"
	"github.com/lookout-sh/lookout/termtext"
)

// exportName is the file name the UI exports a session to: the session
// id reduced to letters, digits, '-' and '_' (at most 40), and the local
// time, as in "lookout-s1-20260101-1504.md". n > 1 adds "-n" for a name
// already taken.
func exportName(sessionID string, now time.Time, n int) string {
	var b strings.Builder
	for _, r := range sessionID {
		if b.Len() >= 40 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	id := b.String()
	if id == "" {
		id = "session"
	}
	name := "lookout-" + id + "-" + now.Format("20060102-1504")
	if n > 1 {
		name += "-" + strconv.Itoa(n)
	}
	return name + ".md"
}

// exportedMsg: the transcript was written to path (or err).
type exportedMsg struct {
	path string
	err  error
}

// export writes the markdown transcript of what is loaded (the CLI's
// `lookout export --format markdown`, render.MarkdownTranscript) to a new
// file in the current directory, in a command; the notice names it.
func (m *Model) export() tea.Cmd {
	if m.view == nil {
		m.setNotice("nothing to export yet", true)
		return m.expireNotice()
	}
	v, sid, now := m.view, m.view.SessionID, m.now()
	if sid == "" {
		sid = m.opts.SessionID
	}
	m.setNotice("exporting…", false)
	return func() tea.Msg {
		md := render.MarkdownTranscript(v)
		for n := 1; n < 100; n++ {
			name := exportName(sid, now, n)
			f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			if err != nil {
				return exportedMsg{err: err}
			}
			_, err = f.WriteString(md)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if abs, aerr := filepath.Abs(name); aerr == nil {
				name = abs
			}
			return exportedMsg{path: name, err: err}
		}
		return exportedMsg{err: errors.New("too many exports this minute")}
	}
}

func (m *Model) exported(msg exportedMsg) tea.Cmd {
	if msg.err != nil {
		m.setNotice("export failed: "+termtext.VisibleLine(msg.err.Error()), true)
	} else {
		m.setNotice("exported to "+termtext.VisibleLine(msg.path), false)
	}
	return m.expireNotice()
}
