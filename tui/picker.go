package tui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/keymap"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
	"github.com/lookout-sh/lookout/themes"
)

// Picker is a small tea.Model listing a host's sessions, most recently
// updated first. Enter chooses the highlighted one; esc, q or ctrl+c
// cancels. Read the outcome with Chosen after the program ends.
type Picker struct {
	sessions []sync.SessionInfo
	host     string
	theme    themes.Theme
	auto     bool
	km       keymap.KeyMap
	cur      int
	chosen   string
	offerNew bool // n starts a new session
	newChose bool
	width    int
	height   int
}

// NewPicker builds a picker over sessions (copied and sorted by UpdatedAt,
// newest first). theme is "dark", "light" or "auto".
func NewPicker(sessions []sync.SessionInfo, host, theme string) (*Picker, error) {
	if theme == "" {
		theme = "auto"
	}
	th, err := themes.ByName(theme, true)
	if err != nil {
		return nil, err
	}
	ss := slices.Clone(sessions)
	slices.SortStableFunc(ss, func(a, b sync.SessionInfo) int { return strings.Compare(b.UpdatedAt, a.UpdatedAt) })
	return &Picker{sessions: ss, host: host, theme: th, auto: theme == "auto", km: keymap.Default(), width: 80, height: 24}, nil
}

// Chosen is the chosen session id, "" when the user cancelled or asked
// for a new session.
func (p *Picker) Chosen() string { return p.chosen }

// OfferNew lets the user ask for a new session (keymap PickerNew) instead
// of choosing one; read the answer with NewChosen.
func (p *Picker) OfferNew() { p.offerNew = true }

// NewChosen reports whether the user asked for a new session.
func (p *Picker) NewChosen() bool { return p.newChose }

// Init asks for the terminal background when the theme is auto.
func (p *Picker) Init() tea.Cmd {
	if p.auto {
		return tea.RequestBackgroundColor
	}
	return nil
}

// Update moves the highlight, chooses or cancels.
func (p *Picker) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		p.width, p.height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		if p.auto {
			if th, err := themes.ByName("auto", msg.IsDark()); err == nil {
				p.theme = th
			}
		}
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, p.km.PickerSelect):
			if len(p.sessions) > 0 {
				p.chosen = p.sessions[p.cur].SessionID
			}
			return p, tea.Quit
		case p.offerNew && key.Matches(msg, p.km.PickerNew):
			p.newChose = true
			return p, tea.Quit
		case key.Matches(msg, p.km.SelectPrev):
			p.cur = max(p.cur-1, 0)
		case key.Matches(msg, p.km.SelectNext):
			p.cur = min(p.cur+1, max(len(p.sessions)-1, 0))
		case key.Matches(msg, p.km.Quit, p.km.QuitT, p.km.ClearSelect):
			return p, tea.Quit
		}
	}
	return p, nil
}

// View lists the sessions around the highlight. What the host said about
// each session (title, id, status, time) is shown as one clean line
// (termtext.Line).
func (p *Picker) View() tea.View {
	t := p.theme
	w := max(p.width, 10)
	hint := "↑/↓ choose · enter open · esc cancel"
	if p.offerNew {
		hint = "↑/↓ choose · enter open · " + p.km.PickerNew.Help().Key + " new session · esc cancel"
	}
	lines := []string{
		fit(" "+t.AgentLabel.Render("Sessions on "+termtext.Line(p.host)), w),
		fit(" "+t.Muted.Render(hint), w),
		"",
	}
	if len(p.sessions) == 0 {
		lines = append(lines, fit("  "+t.Muted.Render("this host has no sessions"), w))
	}
	room := max(p.height-len(lines), 1)
	first := 0
	if p.cur >= room {
		first = p.cur - room + 1
	}
	for i := first; i < len(p.sessions) && i < first+room; i++ {
		s := p.sessions[i]
		title := termtext.Line(s.Title)
		if title == "" {
			title = "(untitled)"
		}
		row := title + t.Muted.Render(" · "+termtext.Line(s.SessionID))
		if st := termtext.Line(s.Status); st != "" {
			row += t.Muted.Render(" · " + st)
		}
		if at := termtext.Line(s.UpdatedAt); at != "" {
			row += t.Faint.Render(" · " + at)
		}
		if i == p.cur {
			row = t.Selected.Render("▌") + " " + t.StatusKey.Render(ansi.Strip(title)) + ansi.Cut(row, ansi.StringWidth(title), ansi.StringWidth(row))
		} else {
			row = "  " + row
		}
		lines = append(lines, fit(row, w))
	}
	v := tea.NewView(strings.Join(lines, "\n"))
	v.AltScreen = true
	return v
}
