package tui

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/sync"
)

// run feeds a command's message back into the picker, as the program
// would.
func runPickerCmd(p *Picker, cmd tea.Cmd) {
	if cmd != nil {
		p.Update(cmd())
	}
}

// ctrl+d (or delete) asks before deleting the highlighted session; n or
// esc keeps it, y or enter deletes it through the host and drops it from
// the list; typed letters never delete, and a failed delete says why.
func TestPickerDeletesOnlyWhenConfirmed(t *testing.T) {
	ss := []sync.SessionInfo{
		{SessionID: "s1", Title: "Fix the flaky sync test", UpdatedAt: "2026-03-01T00:00:00Z"},
		{SessionID: "s2", Title: "Write the agents docs", UpdatedAt: "2026-02-01T00:00:00Z"},
	}
	var asked []string
	fail := false
	p, err := NewPicker(ss, "h", "dark")
	if err != nil {
		t.Fatal(err)
	}
	p.OfferNew()
	p.OfferDelete(func(id string) error {
		asked = append(asked, id)
		if fail {
			return errors.New("the host refused: \x1b[2Jnope")
		}
		return nil
	})
	p.Update(tea.WindowSizeMsg{Width: 120, Height: 10})
	screen := func() string { return ansi.Strip(p.View().Content) }
	if !strings.Contains(screen(), "ctrl+n new · ctrl+d delete · esc cancel") {
		t.Fatalf("the hint does not offer delete:\n%s", screen())
	}
	p.Update(tea.WindowSizeMsg{Width: 80, Height: 10})
	if !strings.Contains(screen(), "esc cancel") {
		t.Fatalf("the hint is cut at 80 columns:\n%s", screen())
	}
	p.Update(tea.WindowSizeMsg{Width: 120, Height: 10})

	// Typing "d" filters; it deletes nothing.
	p.Update(keyMsg("d"))
	if p.filter != "d" || p.del.asking != nil {
		t.Fatalf("typing d: filter %q, asking %v", p.filter, p.del.asking)
	}
	p.Update(keyMsg("esc"))

	p.Update(keyMsg("ctrl+d"))
	if !strings.Contains(screen(), "Delete \u201cFix the flaky sync test\u201d (s1) and its history? y/enter deletes · n/esc keeps it") {
		t.Fatalf("no question:\n%s", screen())
	}
	_, cmd := p.Update(keyMsg("x")) // neither yes nor no: still asking
	if cmd != nil || p.del.asking == nil || p.filter != "" {
		t.Fatal("another key answered the question or typed into the filter")
	}
	p.Update(keyMsg("n"))
	if p.del.asking != nil || len(asked) != 0 || !strings.Contains(screen(), "Fix the flaky") {
		t.Fatalf("n deleted or kept asking: %v", asked)
	}
	p.Update(keyMsg("ctrl+d"))
	p.Update(keyMsg("esc"))
	if p.del.asking != nil || len(asked) != 0 || p.Chosen() != "" {
		t.Fatal("esc did not just keep the session")
	}

	p.Update(keyMsg("ctrl+d"))
	_, cmd = p.Update(keyMsg("y"))
	if !strings.Contains(screen(), "deleting s1…") {
		t.Fatalf("no progress:\n%s", screen())
	}
	runPickerCmd(p, cmd)
	if len(asked) != 1 || asked[0] != "s1" || strings.Contains(screen(), "Fix the flaky") || !strings.Contains(screen(), "deleted session s1") {
		t.Fatalf("y: asked %v\n%s", asked, screen())
	}
	if !strings.Contains(screen(), "▌ Write the agents docs") {
		t.Fatalf("the highlight is not on what is left:\n%s", screen())
	}

	fail = true
	p.Update(tea.KeyPressMsg{Code: tea.KeyDelete})
	_, cmd = p.Update(keyMsg("enter"))
	runPickerCmd(p, cmd)
	if p.Chosen() != "" || !strings.Contains(screen(), "could not delete s2: the host refused: nope") || !strings.Contains(screen(), "Write the agents docs") {
		t.Fatalf("a failed delete:\n%s", screen())
	}
	if c := p.View().Content; strings.Contains(c, "\x1b[2J") {
		t.Fatal("the host's error reached the terminal raw")
	}

	// Without OfferDelete the keys do nothing.
	q, _ := NewPicker(ss, "h", "dark")
	q.Update(keyMsg("ctrl+d"))
	if q.del.asking != nil || strings.Contains(ansi.Strip(q.View().Content), "delete") {
		t.Fatal("a picker without delete offered it")
	}
}
