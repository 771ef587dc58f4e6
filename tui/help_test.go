package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// Help fits or scrolls at 80x24 and 60x20: scrolling through it shows
// every binding whole (its keys and its description on one line, not
// clipped), and no line is wider than the screen.
func TestHelpFitsOrScrollsOnSmallScreens(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {60, 20}, {120, 50}} {
		f := newFake(t)
		longSession(f, 1, 3)
		d := newDriver(t, sz[0], sz[1], Options{Source: f})
		d.keys("?")
		seen := map[string]bool{}
		collect := func() {
			checkWidths(t, d, sz[0])
			if n := len(d.lines()); n != sz[1] {
				t.Fatalf("%dx%d: %d lines", sz[0], sz[1], n)
			}
			for _, l := range d.lines() {
				seen[strings.Join(strings.Fields(l), " ")] = true
			}
		}
		collect()
		for i := 0; i < 60; i++ {
			d.keys("down")
			collect()
		}
		for _, b := range d.m.km.All() {
			want := b.Help().Key + " " + b.Help().Desc
			found := false
			for l := range seen {
				if strings.HasSuffix(l, want) || strings.Contains(l, want+" ") {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%dx%d: help never shows %q whole", sz[0], sz[1], want)
			}
		}
		// pgup, home and the wheel scroll back; esc closes.
		d.keys("pgup", "home")
		d.wantScreen("Anywhere")
		d.send(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
		d.keys("esc")
		d.noScreen("close help")
		d.wantScreen("answer 3")
	}
}

// On a small screen the help says where it is and how to scroll.
func TestHelpSaysItScrolls(t *testing.T) {
	f := newFake(t)
	d := newDriver(t, 60, 20, Options{Source: f})
	d.keys("?")
	d.wantScreen("↓ more")
	d.keys("end")
	d.noScreen("↓ more")
	d.wantScreen("↑ more")
}

func TestLayoutColumns(t *testing.T) {
	blocks := [][]string{{"A", "aaaa"}, {"B", "bb", "bbbbbb"}, {"C", "c"}}
	cases := []struct {
		width int
		want  []string
	}{
		// Everything side by side.
		{40, []string{"A       B         C", "aaaa    bb        c", "        bbbbbb"}},
		// Two columns: the third block goes under the first.
		{17, []string{"A       B", "aaaa    bb", "        bbbbbb", "", "C", "c"}},
		// One column.
		{8, []string{"A", "aaaa", "", "B", "bb", "bbbbbb", "", "C", "c"}},
	}
	for _, c := range cases {
		got := layoutColumns(blocks, c.width)
		for i := range got {
			got[i] = strings.TrimRight(got[i], " ")
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("width %d:\n got %q\nwant %q", c.width, got, c.want)
		}
	}
}
