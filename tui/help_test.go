package tui

import (
	"fmt"
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
		for i := 0; i < 90; i++ {
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
		t.Run(fmt.Sprint("width ", c.width), func(t *testing.T) {
			got := layoutColumns(blocks, c.width)
			for i := range got {
				got[i] = strings.TrimRight(got[i], " ")
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("width %d:\n got %q\nwant %q", c.width, got, c.want)
			}
		})
	}
}

// pageLines gives exactly height lines at any height, scrolled or not.
func TestPageLinesHeight(t *testing.T) {
	body := []string{"a", "b", "c", "d", "e", "f"}
	th := newDriver(t, 20, 10, Options{Source: newFake(t)}).m.theme
	for h := 0; h <= 10; h++ {
		for _, off := range []int{0, 2, 100} {
			out, got := pageLines(th, "title", body, off, 20, h)
			if len(out) != h {
				t.Fatalf("height %d off %d: %d lines", h, off, len(out))
			}
			if got < 0 || got > len(body) {
				t.Fatalf("height %d: offset %d", h, got)
			}
		}
	}
	out, off := pageLines(th, "title", body, 100, 20, 6)
	if off != 3 || !strings.Contains(out[5], "↑ more") || !strings.Contains(out[4], "f") {
		t.Fatalf("scrolled to the end: off %d %q", off, out)
	}
}

// Help and diagnostics keep the screen's height and width at any size.
func TestOverlaysFitSmallScreens(t *testing.T) {
	for _, k := range []string{"?", "f2"} {
		f := newFake(t)
		longSession(f, 1, 3)
		d := newDriver(t, 60, 20, Options{Source: f})
		d.keys(k)
		for _, sz := range [][2]int{{60, 4}, {40, 6}, {30, 9}, {20, 12}, {60, 20}} {
			d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			if n := len(d.lines()); n != sz[1] {
				t.Fatalf("%s at %dx%d: %d lines", k, sz[0], sz[1], n)
			}
			checkWidths(t, d, sz[0])
		}
	}
}
