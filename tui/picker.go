package tui

import (
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/keymap"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
	"github.com/lookout-sh/lookout/themes"
)

// Picker is a small tea.Model listing a host's sessions, most recently
// updated first. Typing filters the list (backspace takes a character
// back); ↑/↓ move the highlight, enter chooses the highlighted session,
// esc clears the filter or cancels, ctrl+c cancels. With OfferDelete,
// ctrl+d or delete asks to delete the highlighted session (picker_delete.go).
// Read the outcome with Chosen after the program ends.
type Picker struct {
	all      []sync.SessionInfo // every session, newest first
	filter   string
	sessions []sync.SessionInfo // those matching filter
	host     string
	theme    themes.Theme
	auto     bool
	km       keymap.KeyMap
	cur      int
	chosen   string
	offerNew bool // Picker.New (ctrl+n) starts a new session
	newChose bool
	del      pickerDelete
	width    int
	height   int
	now      func() time.Time
}

// NewPicker builds a picker over sessions (copied and sorted newest first,
// sync.SortSessions: the order `lookout sessions` prints). theme is
// "dark", "light" or "auto".
func NewPicker(sessions []sync.SessionInfo, host, theme string) (*Picker, error) {
	if theme == "" {
		theme = "auto"
	}
	th, err := themes.ByName(theme, true)
	if err != nil {
		return nil, err
	}
	ss := slices.Clone(sessions)
	sync.SortSessions(ss)
	return &Picker{all: ss, sessions: ss, host: host, theme: th, auto: theme == "auto", km: keymap.Default(), width: 80, height: 24, now: time.Now}, nil
}

// Chosen is the chosen session id, "" when the user cancelled or asked
// for a new session.
func (p *Picker) Chosen() string { return p.chosen }

// OfferNew lets the user ask for a new session (keymap Picker.New) instead
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
	case pickerDeletedMsg:
		p.deleted(msg)
	case tea.KeyPressMsg:
		if p.del.asking != nil {
			return p, p.answerDelete(msg)
		}
		p.del.said = "" // a delete's outcome stays until the next key
		switch {
		case p.del.do != nil && key.Matches(msg, p.km.Picker.Delete):
			p.askDelete()
		case typedText(msg) != "":
			p.setFilter(p.filter + typedText(msg))
		case msg.Code == tea.KeyBackspace && p.filter != "":
			r := []rune(p.filter)
			p.setFilter(string(r[:len(r)-1]))
		case key.Matches(msg, p.km.Transcript.ClearSelect) && p.filter != "":
			p.setFilter("")
		case key.Matches(msg, p.km.Picker.Select):
			if len(p.sessions) > 0 {
				p.chosen = p.sessions[p.cur].SessionID
			}
			return p, tea.Quit
		case p.offerNew && key.Matches(msg, p.km.Picker.New):
			p.newChose = true
			return p, tea.Quit
		case key.Matches(msg, p.km.Transcript.SelectPrev):
			p.cur = max(p.cur-1, 0)
		case key.Matches(msg, p.km.Transcript.SelectNext):
			p.cur = min(p.cur+1, max(len(p.sessions)-1, 0))
		case key.Matches(msg, p.km.Global.Quit, p.km.Transcript.ClearSelect):
			return p, tea.Quit
		}
	}
	return p, nil
}

// setFilter filters the list and highlights its first session.
func (p *Picker) setFilter(f string) {
	p.filter = f
	p.sessions = filterSessions(p.all, f)
	p.cur = 0
}

// typedText is the text a key types into the filter: a printable key
// without ctrl or alt, else "".
func typedText(msg tea.KeyPressMsg) string {
	if msg.Mod&(tea.ModCtrl|tea.ModAlt) != 0 {
		return ""
	}
	return msg.Text
}

// View lists the sessions around the highlight in aligned columns
// (title, status, the fleet host when any session names one, last update
// as HumanTime, id). What the host said about each session is shown as one
// clean line per cell (termtext.Line).
func (p *Picker) View() tea.View {
	t := p.theme
	w := max(p.width, 10)
	hint := pickerHint(p.km, p.offerNew, p.del.do != nil)
	hintLine := fit(" "+t.Muted.Render(hint), w)
	if l, ok := p.deleteLine(w); ok {
		hintLine = l
	}
	filter := ""
	if p.filter != "" {
		filter = fit(" "+t.Text.Render("filter: "+termtext.VisibleLine(p.filter))+t.Muted.Render(" · esc clears"), w)
	}
	lines := []string{
		fit(" "+t.AgentLabel.Render("Sessions on "+termtext.Line(p.host)), w),
		hintLine,
		filter,
	}
	switch {
	case len(p.all) == 0:
		lines = append(lines, fit("  "+t.Muted.Render("this host has no sessions"), w))
	case len(p.sessions) == 0:
		lines = append(lines, fit("  "+t.Muted.Render("no session matches the filter"), w))
	}
	now := p.now()
	withHost := anyHost(p.sessions)
	cells := make([][]string, len(p.sessions))
	for i, s := range p.sessions {
		cells[i] = sessionCells(s, now, withHost)
	}
	head := []string{"TITLE", "STATUS", "UPDATED", "SESSION"}
	if withHost {
		head = []string{"TITLE", "STATUS", "HOST", "UPDATED", "SESSION"}
	}
	// The header is a row too: a column of short cells ("idle") is still
	// as wide as its name.
	cols := columnWidths(append(slices.Clip(cells), head), len(head), w-2)
	if len(p.sessions) > 0 {
		lines = append(lines, fit("  "+t.Faint.Render(joinColumns(head, cols)), w))
	}
	room := max(p.height-len(lines), 1)
	first := 0
	if p.cur >= room {
		first = p.cur - room + 1
	}
	for i := first; i < len(p.sessions) && i < first+room; i++ {
		c := cells[i]
		rest := columnSep + joinColumns(c[1:], cols[1:])
		title := fitCell(c[0], cols[0])
		var row string
		if i == p.cur {
			row = t.Selected.Render("▌") + " " + t.StatusKey.Render(title) + t.Muted.Render(rest)
		} else {
			row = "  " + t.Text.Render(title) + t.Muted.Render(rest)
		}
		lines = append(lines, fit(row, w))
	}
	v := tea.NewView(strings.Join(lines, "\n"))
	v.AltScreen = true
	return v
}

// pickerHint is the picker's key hint. With delete offered as well it
// says less per key, to stay within 80 columns.
func pickerHint(km keymap.KeyMap, offerNew, offerDelete bool) string {
	switch {
	case offerNew && offerDelete:
		return "type to filter · ↑/↓ · enter open · " + km.Picker.New.Help().Key + " new · ctrl+d delete · esc cancel"
	case offerNew:
		return "type to filter · ↑/↓ choose · enter open · " + km.Picker.New.Help().Key + " new session · esc cancel"
	case offerDelete:
		return "type to filter · ↑/↓ choose · enter open · ctrl+d delete · esc cancel"
	}
	return "type to filter · ↑/↓ choose · enter open · esc cancel"
}

// sessionCells are one session's columns: title, status, the fleet host
// running it (withHost only), last update, id, each one clean line.
func sessionCells(s sync.SessionInfo, now time.Time, withHost bool) []string {
	title := termtext.Line(s.Title)
	if title == "" {
		title = "(untitled)"
	}
	if withHost {
		return []string{title, SessionState(s), termtext.Line(s.Host), HumanTime(s.Updated(), now), termtext.Line(s.SessionID)}
	}
	return []string{title, SessionState(s), HumanTime(s.Updated(), now), termtext.Line(s.SessionID)}
}

// anyHost reports whether a host named the fleet host of any session: the
// picker then shows a host column.
func anyHost(ss []sync.SessionInfo) bool {
	for _, s := range ss {
		if s.Host != "" {
			return true
		}
	}
	return false
}

// columnSep is the gap between two columns.
const columnSep = "  "

// columnWidths sizes aligned columns to fit width cells: every column as
// wide as its widest cell (the first column, the title, at most 40), and
// when that is too wide the first column gives way down to 12 cells, then
// the last (the id) is cut.
func columnWidths(rows [][]string, n, width int) []int {
	ws := make([]int, n)
	for _, r := range rows {
		for i := 0; i < n && i < len(r); i++ {
			ws[i] = max(ws[i], ansi.StringWidth(r[i]))
		}
	}
	ws[0] = max(min(ws[0], 40), 5)
	total := func() int {
		s := len(columnSep) * (n - 1)
		for _, x := range ws {
			s += x
		}
		return s
	}
	if over := total() - width; over > 0 {
		ws[0] = max(12, ws[0]-over)
	}
	if over := total() - width; over > 0 {
		ws[n-1] = max(0, ws[n-1]-over)
	}
	return ws
}

// fitCell pads or cuts a plain cell to w cells (a cut cell ends in …).
func fitCell(s string, w int) string {
	if ansi.StringWidth(s) > w {
		s = ansi.Truncate(s, w, "…")
	}
	return fit(s, w)
}

// joinColumns lays cells out at the widths, separated by columnSep.
func joinColumns(cells []string, ws []int) string {
	var b strings.Builder
	for i, c := range cells {
		if i > 0 {
			b.WriteString(columnSep)
		}
		if i == len(cells)-1 {
			b.WriteString(ansi.Truncate(c, ws[i], "…"))
			continue
		}
		b.WriteString(fitCell(c, ws[i]))
	}
	return b.String()
}
