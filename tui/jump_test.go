package tui

import (
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

func TestNextPrompt(t *testing.T) {
	u := model.Row{Item: &model.Item{ID: "u", Kind: model.KindUserMessage}}
	a := model.Row{Item: &model.Item{ID: "a", Kind: "agentMessage"}}
	p := model.Row{Pending: &model.PendingEntry{CommandID: "c"}}
	rows := []model.Row{u, a, a, u, a, p}
	cases := []struct {
		name      string
		from, dir int
		want      int
		ok        bool
	}{
		{"previous from the end", len(rows), -1, 5, true},
		{"previous skips answers", 4, -1, 3, true},
		{"previous from a prompt", 3, -1, 0, true},
		{"none before the first", 0, -1, 0, false},
		{"next from the start", -1, 1, 0, true},
		{"next skips answers", 0, 1, 3, true},
		{"next reaches a pending prompt", 3, 1, 5, true},
		{"none after the last", 5, 1, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := nextPrompt(rows, c.from, c.dir)
			if got != c.want || ok != c.ok {
				t.Fatalf("nextPrompt(%d, %d) = %d, %v; want %d, %v", c.from, c.dir, got, ok, c.want, c.ok)
			}
		})
	}
}

// [ and ] walk the prompts, putting each at the top of the window;
// alt+up does it from the composer.
func TestJumpBetweenPrompts(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 30)
	d := newDriver(t, 60, 20, Options{Source: f})
	d.keys("alt+up")
	if d.m.focus != focusTranscript {
		t.Fatal("alt+up did not focus the transcript")
	}
	if row, ok := d.m.tr.selectedRow(); !ok || row.Item.ID != "u00030" {
		t.Fatalf("alt+up selected %+v, want the last prompt", row.Item)
	}
	d.keys("[", "[")
	if row, _ := d.m.tr.selectedRow(); row.Item.ID != "u00028" {
		t.Fatalf("[ [ selected %s, want u00028", row.Item.ID)
	}
	// The prompt is at the top of the window, its answer below it.
	top := d.lineOf("question 28")
	if top < 0 || top > 2 || d.lineOf("answer 28") < top {
		t.Fatalf("question 28 at line %d:\n%s", top, d.screen())
	}
	d.noScreen("answer 27")
	d.keys("]")
	if row, _ := d.m.tr.selectedRow(); row.Item.ID != "u00029" {
		t.Fatalf("] selected %s, want u00029", row.Item.ID)
	}
	// At the top the selection follows the window (to its last row), and
	// ] goes on from there.
	d.keys("g", "]")
	row, _ := d.m.tr.selectedRow()
	if q := "question " + strings.TrimLeft(row.Item.ID[1:], "0"); d.lineOf(q) > 2 || d.lineOf(q) < 0 {
		t.Fatalf("] from the top selected %s, not at the top:\n%s", row.Item.ID, d.screen())
	}
	for range 30 {
		d.keys("[")
	}
	if row, _ := d.m.tr.selectedRow(); row.Item.ID != "u00001" {
		t.Fatalf("[ thirty times selected %s, want the first prompt", row.Item.ID)
	}
	d.wantScreen("no earlier prompt")
}

// E expands every item and C collapses them all.
func TestExpandAndCollapseAll(t *testing.T) {
	f := newFake(t)
	for _, id := range []string{"r1", "r2"} {
		f.item(completed, obj{"itemId": id, "kind": "reasoning", "status": "completed",
			"summary": []any{"first part of " + id, "second part of " + id}})
	}
	d := newDriver(t, 80, 24, Options{Source: f})
	d.noScreen("second part of r1")
	d.keys("tab", "E")
	d.wantScreen("second part of r1")
	d.wantScreen("second part of r2")
	d.keys("C")
	d.noScreen("second part of r1")
	d.noScreen("second part of r2")
}
