package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// attention is what the session asked of its user that this client has
// already tapped them on the shoulder for (or that was there when it
// attached), so each approval, question, failure or long turn's end is
// told once.
type attention struct {
	primed    bool            // the first picture was taken in: what it held is not news
	approvals map[string]bool // approval ids seen
	questions map[string]bool // question item ids seen
	lastTurn  string          // the last completed turn seen
}

// longTurn is how long a turn must have run for its end to be news.
const longTurn = time.Minute

// tap is one reason to call the user: a short title and one line.
type tap struct {
	title, body string
}

// observe takes in v and returns what is news in it, oldest first. The
// first picture is never news: a user who attaches sees it on screen.
func (a *attention) observe(v *model.View, now time.Time) []tap {
	if v == nil {
		return nil
	}
	if a.approvals == nil {
		a.approvals, a.questions = map[string]bool{}, map[string]bool{}
	}
	var taps []tap
	for _, ap := range v.Approvals {
		if a.approvals[ap.ApprovalID] {
			continue
		}
		a.approvals[ap.ApprovalID] = true
		taps = append(taps, tap{"Approval needed", firstLine(ap.Summary)})
	}
	for _, q := range model.WaitingQuestions(v.Items, v.ActiveTurn) {
		if a.questions[q.ID] {
			continue
		}
		a.questions[q.ID] = true
		taps = append(taps, tap{"Question", firstLine(q.QuestionOf().Text)})
	}
	if t := v.LastTurn; t != nil && t.TurnID != a.lastTurn {
		a.lastTurn = t.TurnID
		if tp, ok := turnTap(t, now); ok {
			taps = append(taps, tp)
		}
	}
	if !a.primed {
		a.primed = true
		return nil
	}
	return taps
}

// turnTap is the news of a turn that just ended: a failure always; a
// completion after a long run.
func turnTap(t *model.TurnRecord, now time.Time) (tap, bool) {
	switch t.Status {
	case model.StatusFailed:
		why := "the turn failed"
		if t.Error != nil && t.Error.Message != "" {
			why = t.Error.Message
		}
		return tap{"Turn failed", firstLine(why)}, true
	case model.StatusCompleted:
		started, err := time.Parse(time.RFC3339Nano, t.StartedAt)
		if err == nil && now.Sub(started) >= longTurn {
			return tap{"Turn finished", "after " + now.Sub(started).Round(time.Second).String()}, true
		}
	}
	return tap{}, false
}

// notifyEvery is how often at most a client taps its user; what comes
// meanwhile is counted into the next tap.
const notifyEvery = time.Minute

// notifier decides when to tap (only while the terminal is not focused,
// at most once per notifyEvery) and writes the tap in the terminal's
// style.
type notifier struct {
	style   NotifyStyle
	blurred bool      // the terminal reported focus out, and not in since
	last    time.Time // the last tap written
	held    int       // taps coalesced since
}

// sequence is what to write for taps at now ("" for nothing).
func (n *notifier) sequence(taps []tap, session string, now time.Time) string {
	if len(taps) == 0 || n.style == NotifyOff || !n.blurred {
		return ""
	}
	if !n.last.IsZero() && now.Sub(n.last) < notifyEvery {
		n.held += len(taps)
		return ""
	}
	t := taps[len(taps)-1]
	if more := n.held + len(taps) - 1; more > 0 {
		t.body += " (+" + itoa(more) + " more)"
	}
	n.last, n.held = now, 0
	title := t.title
	if session != "" {
		title += ": " + session
	}
	return notifySequence(n.style, title, t.body)
}

// NotifyStyle is how a terminal is told to notify its user.
type NotifyStyle int

const (
	NotifyOff    NotifyStyle = iota // write nothing
	NotifyBell                      // BEL: the terminal (or tmux) flags the window
	NotifyOSC9                      // ESC ] 9 ; text BEL (iTerm2, WezTerm, Windows Terminal, ghostty)
	NotifyOSC777                    // ESC ] 777 ; notify ; title ; body BEL (foot, urxvt)
	NotifyOSC99                     // ESC ] 99 ; ; text ESC \ (kitty)
)

// notifyText bounds a notification's text: one clean line of at most
// 200 bytes, with none of the separators the sequences use.
func notifyText(s string) string {
	s = termtext.Line(s)
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != ';' {
			b = append(b, s[i])
		}
	}
	return cutRunes(string(b), 200)
}

// notifySequence is the escape sequence of one notification.
func notifySequence(style NotifyStyle, title, body string) string {
	title, body = notifyText(title), notifyText(body)
	switch style {
	case NotifyBell:
		return "\a"
	case NotifyOSC9:
		return "\x1b]9;" + title + " · " + body + "\a"
	case NotifyOSC777:
		return "\x1b]777;notify;" + title + ";" + body + "\a"
	case NotifyOSC99:
		return "\x1b]99;;" + title + " · " + body + "\x1b\\"
	}
	return ""
}

// cutRunes keeps at most n bytes of s, on a rune boundary.
func cutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// NotifyStyleFromEnv picks the notification style of the terminal the
// process runs in, from its environment (getenv): LOOKOUT_NOTIFY (off,
// bell, osc9, osc777, osc99) when set, else what the terminal is known to
// support, else the bell. Inside tmux it is the bell: tmux drops OSC
// notifications unless passthrough is on, and flags a bell's window.
func NotifyStyleFromEnv(getenv func(string) string) NotifyStyle {
	switch getenv("LOOKOUT_NOTIFY") {
	case "off", "0", "false":
		return NotifyOff
	case "bell":
		return NotifyBell
	case "osc9":
		return NotifyOSC9
	case "osc777":
		return NotifyOSC777
	case "osc99":
		return NotifyOSC99
	}
	term, prog := getenv("TERM"), getenv("TERM_PROGRAM")
	switch {
	case getenv("TMUX") != "":
		return NotifyBell
	case term == "xterm-kitty" || getenv("KITTY_WINDOW_ID") != "":
		return NotifyOSC99
	case prog == "iTerm.app" || prog == "WezTerm" || prog == "ghostty" || getenv("WT_SESSION") != "":
		return NotifyOSC9
	case len(term) >= 4 && (term[:4] == "foot" || term[:4] == "rxvt"):
		return NotifyOSC777
	}
	return NotifyBell
}

// setLooking tells the source when whether the user looks at the session
// changes: focus in or a key (they are here), focus out (they left).
func (m *Model) setLooking(on bool) tea.Cmd {
	if m.looking == on {
		return nil
	}
	m.looking = on
	src := m.src
	return func() tea.Msg { src.SetLooking(on); return nil }
}
