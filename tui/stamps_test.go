package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/model"
)

func TestMessageStamp(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	msg := func(kind, at string) *model.Item { return &model.Item{Kind: kind, RecordedAt: at} }
	cases := []struct {
		name     string
		it       *model.Item
		selected bool
		want     string
	}{
		{"prompt minutes ago", msg(model.KindUserMessage, "2026-01-01T11:55:00Z"), false, "5 min ago"},
		{"agent message just now", msg(model.KindAgentMessage, "2026-01-01T11:59:50Z"), false, "just now"},
		{"earlier today", msg(model.KindAgentMessage, "2026-01-01T09:03:00Z"), false, "today 09:03"},
		{"selected: absolute", msg(model.KindUserMessage, "2026-01-01T11:55:07.5Z"), true, "2026-01-01 11:55:07"},
		{"tool calls carry none", msg("commandExecution", "2026-01-01T11:55:00Z"), false, ""},
		{"no time", msg(model.KindUserMessage, ""), false, ""},
		{"unreadable time", msg(model.KindUserMessage, "yesterday"), false, ""},
		{"nil", nil, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := messageStamp(c.it, now, c.selected); got != c.want {
				t.Fatalf("messageStamp = %q, want %q", got, c.want)
			}
		})
	}
}

// Message headers show how long ago; the selected one its date and time.
// A moving clock changes the stamps without re-rendering any item.
func TestMessageTimesAreDrawnInTheFrame(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 3)
	now := fixedNow
	d := newDriver(t, 80, 24, Options{Source: f, Now: func() time.Time { return now }})
	line := d.lines()[d.lineOf("question 3")-1]
	if !strings.Contains(line, "You") || !strings.HasSuffix(strings.TrimRight(line, " │┃"), "1 min ago") {
		t.Fatalf("prompt header %q lacks its time", line)
	}
	before := d.m.r.Stats().ItemRenders
	now = now.Add(10 * time.Minute)
	d.pull()
	d.keys("pgup", "pgdown") // any redraw
	d.wantScreen("11 min ago")
	if got := d.m.r.Stats().ItemRenders - before; got != 0 {
		t.Fatalf("a moving clock re-rendered %d items", got)
	}
	d.keys("alt+up")
	d.wantScreen("2026-01-01 00:00:00")
	checkWidths(t, d, 80)
}

// On a narrow terminal a header too long for its stamp keeps its text.
func TestMessageTimeGivesWay(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 1)
	d := newDriver(t, 14, 10, Options{Source: f})
	d.noScreen("min ago")
	d.wantScreen("You")
	checkWidths(t, d, 14)
}
