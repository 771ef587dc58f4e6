package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

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
	if !(iNew >= 0 && iNew < iMid && iMid < iOld) {
		t.Fatalf("not newest first:\n%s", screen)
	}
	if !strings.Contains(screen, "Sessions on 127.0.0.1:7777") || !strings.Contains(screen, "▌ New work") {
		t.Fatalf("header or highlight missing:\n%s", screen)
	}
	p.Update(keyMsg("down"))
	p.Update(keyMsg("j"))
	p.Update(keyMsg("j")) // clamps at the last
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
