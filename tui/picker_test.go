package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/lookout-sh/lookout/sync"
)

func TestPickerOrdersChoosesAndCancels(t *testing.T) {
	ss := []sync.SessionInfo{
		{SessionID: "old", Title: "Old work", UpdatedAt: "2026-01-01T00:00:00Z"},
		{SessionID: "new", Title: "New work", UpdatedAt: "2026-03-01T00:00:00Z", Status: "idle"},
		{SessionID: "mid", Title: "", UpdatedAt: "2026-02-01T00:00:00Z"},
	}
	p, err := NewPicker(ss, "127.0.0.1:7777", "dark")
	if err != nil {
		t.Fatal(err)
	}
	p.Update(tea.WindowSizeMsg{Width: 70, Height: 10})
	screen := ansi.Strip(p.View().Content)
	iNew, iMid, iOld := strings.Index(screen, "New work"), strings.Index(screen, "(untitled)"), strings.Index(screen, "Old work")
	if iNew < 0 || iNew >= iMid || iMid >= iOld {
		t.Fatalf("not newest first:\n%s", screen)
	}
	if !strings.Contains(screen, "Sessions on 127.0.0.1:7777") || !strings.Contains(screen, "▌ New work") {
		t.Fatalf("header or highlight missing:\n%s", screen)
	}
	p.Update(keyMsg("down"))
	p.Update(keyMsg("down"))
	p.Update(keyMsg("down")) // clamps at the last
	_, cmd := p.Update(keyMsg("enter"))
	if p.Chosen() != "old" || cmd == nil {
		t.Fatalf("chose %q", p.Chosen())
	}
	q, _ := NewPicker(ss, "h", "dark")
	q.Update(keyMsg("esc"))
	if q.Chosen() != "" {
		t.Fatalf("esc chose %q", q.Chosen())
	}
	if _, err := NewPicker(ss, "h", "purple"); err == nil {
		t.Fatal("an unknown theme was accepted")
	}
}

// Typing filters the list, every character of it (issue 25, 8: any n
// started a new session and lost what was typed); ctrl+n, a chord
// nobody types by accident, starts a new session.
func TestPickerTypingFilters(t *testing.T) {
	ss := []sync.SessionInfo{
		{SessionID: "s1", Title: "Fix the flaky sync test", UpdatedAt: "2026-03-01T00:00:00Z"},
		{SessionID: "s2", Title: "Write the agents docs", UpdatedAt: "2026-02-01T00:00:00Z"},
		{SessionID: "s3", Title: "Plan the new release", UpdatedAt: "2026-01-01T00:00:00Z"},
	}
	p, err := NewPicker(ss, "h", "dark")
	if err != nil {
		t.Fatal(err)
	}
	p.OfferNew()
	p.Update(tea.WindowSizeMsg{Width: 80, Height: 12})
	for _, r := range "new rel" {
		if _, cmd := p.Update(tea.KeyPressMsg{Code: r, Text: string(r)}); cmd != nil || p.NewChosen() {
			t.Fatalf("typing %q ended the picker (new session %v)", r, p.NewChosen())
		}
	}
	screen := ansi.Strip(p.View().Content)
	if !strings.Contains(screen, "filter: new rel") || !strings.Contains(screen, "▌ Plan the new release") ||
		strings.Contains(screen, "Fix the flaky") || strings.Contains(screen, "Write the agents") {
		t.Fatalf("the filter did not narrow the list:\n%s", screen)
	}
	p.Update(keyMsg("backspace"))
	p.Update(keyMsg("backspace"))
	p.Update(keyMsg("backspace"))
	p.Update(keyMsg("backspace"))
	if p.filter != "new" {
		t.Fatalf("filter %q after backspaces, want %q", p.filter, "new")
	}
	p.Update(keyMsg("x"))
	if s := ansi.Strip(p.View().Content); !strings.Contains(s, "no session matches the filter") {
		t.Fatalf("no match not said:\n%s", s)
	}
	p.Update(keyMsg("esc")) // clears the filter, does not cancel
	if _, cmd := p.Update(keyMsg("down")); cmd != nil || p.filter != "" {
		t.Fatalf("esc cancelled the picker or kept the filter %q", p.filter)
	}
	if _, cmd := p.Update(keyMsg("enter")); p.Chosen() != "s2" || cmd == nil {
		t.Fatalf("chose %q after the filter was cleared", p.Chosen())
	}

	q, _ := NewPicker(ss, "h", "dark")
	q.OfferNew()
	q.Update(keyMsg("n"))
	if q.NewChosen() {
		t.Fatal("a typed n started a new session")
	}
	if _, cmd := q.Update(keyMsg("ctrl+n")); !q.NewChosen() || cmd == nil {
		t.Fatal("ctrl+n did not start a new session")
	}
}

func TestSessionMatches(t *testing.T) {
	s := sync.SessionInfo{SessionID: "01a2-fix", Title: "Fix the Flaky sync test", Status: "running", Host: "east-1"}
	cases := []struct {
		query string
		want  bool
	}{
		{"", true},
		{"   ", true},
		{"flaky", true},
		{"FLAKY SYNC", true},
		{"sync flaky", true}, // words in any order
		{"01a2", true},
		{"running", true},
		{"east", true},
		{"flaky docs", false},
		{"nope", false},
	}
	for _, c := range cases {
		if got := sessionMatches(s, c.query); got != c.want {
			t.Errorf("sessionMatches(%q) = %v, want %v", c.query, got, c.want)
		}
	}
}

// The picker shows when each session was last updated as a person reads
// it (never a raw RFC 3339 timestamp), newest first by time (not by text),
// in aligned columns.
func TestPickerShowsHumanTimesInAlignedColumns(t *testing.T) {
	now := time.Date(2026, 3, 11, 14, 30, 0, 0, time.UTC)
	ss := []sync.SessionInfo{
		{SessionID: "s-whole", Title: "Whole second", Status: "idle", UpdatedAt: "2026-03-11T14:25:00Z"},
		{SessionID: "s-nanos", Title: "Nanoseconds", Status: "running", UpdatedAt: "2026-03-11T14:25:00.123456789Z"},
		{SessionID: "s-old", Title: "Last year's", Status: "idle", UpdatedAt: "2025-11-30T08:00:00.5Z"},
		{SessionID: "s-yday", Title: "日本語のタイトル", Status: "idle", UpdatedAt: "2026-03-10T09:12:00.000000001Z"},
	}
	p, err := NewPicker(ss, "h", "dark")
	if err != nil {
		t.Fatal(err)
	}
	p.now = func() time.Time { return now }
	p.Update(tea.WindowSizeMsg{Width: 90, Height: 12})
	screen := ansi.Strip(p.View().Content)
	if strings.Contains(screen, "T14:25") || strings.Contains(screen, "2026-03") || strings.Contains(screen, "Z ") {
		t.Fatalf("raw timestamps on screen:\n%s", screen)
	}
	for _, want := range []string{"5 min ago", "yesterday 09:12", "2025-11-30"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("screen lacks %q:\n%s", want, screen)
		}
	}
	var rows []string
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "s-") {
			rows = append(rows, l)
		}
	}
	order := []string{"s-nanos", "s-whole", "s-yday", "s-old"}
	if len(rows) != len(order) {
		t.Fatalf("%d rows:\n%s", len(rows), screen)
	}
	col := -1
	for i, r := range rows {
		if !strings.Contains(r, order[i]) {
			t.Fatalf("row %d is %q, want %s (newest first):\n%s", i, r, order[i], screen)
		}
		// Columns line up: every row's session id starts at the same cell.
		c := ansi.StringWidth(r[:strings.Index(r, "s-")])
		if col >= 0 && c != col {
			t.Fatalf("the session column starts at cell %d in row %d, %d above:\n%s", c, i, col, screen)
		}
		col = c
	}
}

// TestGoldenSessionSwitcher: the picker as ctrl+s shows it over an agent
// host (new sessions offered), at 80x24, plain and styled.
func TestGoldenSessionSwitcher(t *testing.T) {
	now := time.Date(2026, 3, 11, 14, 30, 0, 0, time.UTC)
	ss := []sync.SessionInfo{
		{SessionID: "01a2-fix", Title: "Fix the flaky sync test", Status: "running", UpdatedAt: "2026-03-11T14:29:00Z"},
		{SessionID: "01a2-doc", Title: "Write the agents docs", Status: "idle", UpdatedAt: "2026-03-11T11:02:00Z"},
		{SessionID: "01a2-old", Title: "", Status: "idle", UpdatedAt: "2026-02-01T08:00:00Z"},
	}
	p, err := NewPicker(ss, "codex on 127.0.0.1:7777", "dark")
	if err != nil {
		t.Fatal(err)
	}
	p.now = func() time.Time { return now }
	p.OfferNew()
	p.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	p.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	content := p.View().Content
	t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, trimRight(ansi.Strip(content))) })
	t.Run("styled", func(t *testing.T) { golden.RequireEqual(t, quoteLines(content)) })
}

// Sessions listed by a fleet host name their host: the picker shows it in
// its own column, between the status and the last update.
func TestPickerShowsTheFleetHost(t *testing.T) {
	now := time.Date(2026, 3, 11, 14, 30, 0, 0, time.UTC)
	ss := []sync.SessionInfo{
		{SessionID: "s-ci", Title: "On CI", Status: "running", UpdatedAt: "2026-03-11T14:29:00Z", Host: "ci-runner-7"},
		{SessionID: "s-dev", Title: "On a dev box", Status: "idle", UpdatedAt: "2026-03-11T14:20:00Z", Host: "devbox-2"},
	}
	p, err := NewPicker(ss, "h", "dark")
	if err != nil {
		t.Fatal(err)
	}
	p.now = func() time.Time { return now }
	p.Update(tea.WindowSizeMsg{Width: 90, Height: 12})
	screen := ansi.Strip(p.View().Content)
	var head, ci, dev string
	for _, l := range strings.Split(screen, "\n") {
		switch {
		case strings.Contains(l, "HOST"):
			head = l
		case strings.Contains(l, "s-ci"):
			ci = l
		case strings.Contains(l, "s-dev"):
			dev = l
		}
	}
	if head == "" || ci == "" || dev == "" {
		t.Fatalf("no host column:\n%s", screen)
	}
	cell := func(l, s string) int { return ansi.StringWidth(l[:strings.Index(l, s)]) }
	col := cell(head, "HOST")
	if cell(ci, "ci-runner-7") != col || cell(dev, "devbox-2") != col {
		t.Fatalf("the hosts are not under HOST:\n%s", screen)
	}
	if cell(head, "STATUS") > col || col > cell(head, "UPDATED") {
		t.Fatalf("HOST is not between STATUS and UPDATED:\n%s", screen)
	}
}

// A column whose cells are shorter than its name ("idle" under STATUS)
// still shows the whole name.
func TestPickerHeaderIsNeverCut(t *testing.T) {
	ss := []sync.SessionInfo{{SessionID: "s1", Title: "One", Status: "idle", UpdatedAt: "2026-03-11T14:25:00Z"}}
	p, err := NewPicker(ss, "h", "dark")
	if err != nil {
		t.Fatal(err)
	}
	p.Update(tea.WindowSizeMsg{Width: 80, Height: 12})
	screen := ansi.Strip(p.View().Content)
	for _, want := range []string{"TITLE", "STATUS", "UPDATED", "SESSION"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("the header lacks %q:\n%s", want, screen)
		}
	}
}
