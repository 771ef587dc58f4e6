package tui

import (
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// searchBudget is how many rows one step of a search reads before it
// yields to the event loop (searchStepMsg), so that a search through a
// large session never freezes the screen.
const searchBudget = 500

// search is the transcript search: the query typed on the search line,
// and where a step-by-step scan has got to. Matching is case-insensitive
// over each row's plain text (what y copies), of the rows loaded.
type search struct {
	editing bool   // the search line takes the keys
	query   string // as typed; "" means no search
	gen     int    // bumped by every new scan; stale steps are dropped

	// older: a scan towards older rows ran past the oldest row loaded and
	// asked for a page of older history; it goes on from olderFrom (the
	// key of the then oldest row) when the page arrives.
	older     bool
	olderFrom string

	text map[string]cachedText // lowercased plain text by row key
}

type cachedText struct {
	ver  uint64
	text string
}

// stop closes the search line and drops the search: no query, no scan
// going on.
func (s *search) stop() {
	s.editing, s.query, s.older = false, "", false
	s.gen++
}

// searchStepMsg continues a scan that used up its budget, from the row
// with key from (by key: rows may be prepended in between).
type searchStepMsg struct {
	gen, dir int
	from     string
}

// rowText returns a row's lowercased plain text, cached by item version.
func (m *Model) rowText(r model.Row) string {
	s := &m.srch
	if s.text == nil || len(s.text) > 8192 {
		s.text = map[string]cachedText{}
	}
	var ver uint64
	if r.Item != nil {
		ver = r.Item.Version
	}
	k := r.Key()
	if c, ok := s.text[k]; ok && c.ver == ver {
		return c.text
	}
	var plain string
	if r.Item != nil {
		plain = m.r.Plain(r.Item)
	} else {
		plain = r.Pending.Text
	}
	c := cachedText{ver, strings.ToLower(termtext.Text(plain))}
	s.text[k] = c
	return c.text
}

// scanRows looks for the first row strictly after from in direction dir
// whose text holds q (already lowercased), reading at most budget rows.
// It returns the row (found), or where to go on from (more), or neither
// when the end was reached.
func scanRows(n, from, dir, budget int, text func(int) string, q string) (idx int, found, more bool) {
	i := from + dir
	for read := 0; i >= 0 && i < n; i, read = i+dir, read+1 {
		if read == budget {
			return i - dir, false, true
		}
		if strings.Contains(text(i), q) {
			return i, true, false
		}
	}
	return 0, false, false
}

// findMatch runs one step of a scan from row from in direction dir (-1
// older, +1 newer): it selects a match and shows it, or schedules the
// next step, or past the oldest row asks for older history, or says there
// is none.
func (m *Model) findMatch(from, dir int) tea.Cmd {
	s := &m.srch
	q := strings.ToLower(s.query)
	if q == "" {
		return nil
	}
	rows := m.tr.rows()
	text := func(i int) string {
		if m.tr.isHole(i) {
			return "" // the items not loaded: nothing to search
		}
		return m.rowText(rows[i])
	}
	i, found, more := scanRows(len(rows), from, dir, searchBudget, text, q)
	m.dirty = true
	switch {
	case found:
		s.older = false
		m.tr.selectRow(i)
		m.focusTranscript()
		m.tr.reveal(i)
		m.clearNotice()
		return nil
	case more:
		s.gen++
		gen, from := s.gen, m.tr.rowKey(i)
		m.setNotice("searching…", false)
		return func() tea.Msg { return searchStepMsg{gen: gen, dir: dir, from: from} }
	case dir < 0 && m.tr.olderAvailable():
		s.older, s.olderFrom = true, m.tr.oldestKey()
		m.setNotice("searching older history…", false)
		if m.snap.HistoryLoading || m.olderAsked == s.olderFrom {
			return nil
		}
		m.olderAsked = s.olderFrom
		return call(m.src.LoadOlder)
	}
	s.older = false
	if dir < 0 {
		m.setNotice("no older match for “"+termtext.VisibleLine(s.query)+"”", true)
	} else {
		m.setNotice("no newer match for “"+termtext.VisibleLine(s.query)+"”", true)
	}
	return m.expireNotice()
}

// searchStep continues a scan (searchStepMsg).
func (m *Model) searchStep(msg searchStepMsg) tea.Cmd {
	if msg.gen != m.srch.gen {
		return nil
	}
	i, ok := m.rowIndex(msg.from)
	if !ok {
		// The row is gone (a rebuild dropped it): start over from the end.
		i = -1
		if msg.dir < 0 {
			i = len(m.tr.rows())
		}
	}
	return m.findMatch(i, msg.dir)
}

// rowIndex is the index of the row with key k.
func (m *Model) rowIndex(k string) (int, bool) {
	for i := range m.tr.rows() {
		if m.tr.rowKey(i) == k {
			return i, true
		}
	}
	return 0, false
}

// searchOlderArrived goes on with a scan waiting for older history, once
// a page has landed above the row it stopped at.
func (m *Model) searchOlderArrived() tea.Cmd {
	s := &m.srch
	if !s.older || m.snap.HistoryLoading || m.tr.oldestKey() == s.olderFrom {
		return nil
	}
	from, _ := m.rowIndex(s.olderFrom)
	s.older = false
	return m.findMatch(from, -1)
}

// searchFrom is where n and N start: the selected row, else past the
// newest row (N) or before the oldest (n).
func (m *Model) searchFrom(dir int) int {
	if i, ok := m.tr.selectedIndex(); ok {
		return i
	}
	if dir < 0 {
		return len(m.tr.rows())
	}
	return -1
}

// openSearch shows the search line with the last query.
func (m *Model) openSearch() tea.Cmd {
	m.srch.editing = true
	m.dirty = true
	return nil
}

// searchKey edits the search line: enter finds the newest match, esc
// closes it and drops the search, backspace and typing edit the query.
func (m *Model) searchKey(msg tea.KeyPressMsg) tea.Cmd {
	s := &m.srch
	switch msg.String() {
	case "enter":
		s.editing = false
		s.gen++
		return m.findMatch(len(m.tr.rows()), -1)
	case "esc":
		s.stop()
		return nil
	case "backspace":
		if _, n := utf8.DecodeLastRuneInString(s.query); n > 0 {
			s.query = s.query[:len(s.query)-n]
		}
		return nil
	}
	if msg.Text != "" && msg.Mod&^tea.ModShift == 0 {
		s.query += termtext.VisibleLine(msg.Text)
	}
	return nil
}

// searchLabel is the composer rule while a search is open or active.
func (m *Model) searchLabel() string {
	s := m.srch
	switch {
	case s.editing:
		return m.theme.Accent.Bold(true).Render("/ "+termtext.VisibleLine(s.query)+"▏") +
			m.theme.Muted.Render(" enter finds · esc closes ")
	case s.query != "":
		return m.theme.Accent.Render("/ "+termtext.VisibleLine(s.query)) +
			m.theme.Muted.Render(" · "+bindingKeys(m.km.Transcript.SearchPrev)+" older · "+bindingKeys(m.km.Transcript.SearchNext)+" newer · / edits ")
	}
	return ""
}

// highlight marks every occurrence of the query in the visible lines of
// the transcript (a new slice; the transcript's lines are not touched).
func (m *Model) highlight(lines []string) []string {
	q := strings.ToLower(m.srch.query)
	if q == "" {
		return lines
	}
	out := make([]string, len(lines))
	for k, l := range lines {
		out[k] = markMatches(l, q, m.theme.Selected.Reverse(true).Render)
	}
	return out
}

// markMatches renders each case-insensitive occurrence of q (lowercase)
// in the styled line l with mark, keeping the line's width. Lines whose
// lowercase differs in length from the original are left alone.
func markMatches(l, q string, mark func(...string) string) string {
	plain := ansi.Strip(l)
	lower := strings.ToLower(plain)
	if len(lower) != len(plain) || !strings.Contains(lower, q) {
		return l
	}
	var b strings.Builder
	done := 0 // cells of l written
	for off := 0; ; {
		j := strings.Index(lower[off:], q)
		if j < 0 {
			break
		}
		a := ansi.StringWidth(plain[:off+j])
		z := a + ansi.StringWidth(plain[off+j:off+j+len(q)])
		b.WriteString(ansi.Cut(l, done, a))
		b.WriteString(mark(plain[off+j : off+j+len(q)]))
		done = z
		off += j + len(q)
	}
	b.WriteString(ansi.Cut(l, done, ansi.StringWidth(l)))
	return b.String()
}
