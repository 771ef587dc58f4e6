package tui

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestWithBar(t *testing.T) {
	const (
		track = "\x1b[38;2;1;2;3m│\x1b[m"
		thumb = "\x1b[38;2;4;5;6m┃\x1b[m"
		pad10 = "          "
	)
	for _, c := range []struct {
		name, line, mark, want string
	}{
		{"long padding after plain text is hidden", "ab" + pad10, track, "ab\x1b[8m" + pad10 + "\x1b[m" + track},
		{"a styled line closed by a reset", "\x1b[1mab\x1b[m" + pad10, thumb, "\x1b[1mab\x1b[m\x1b[8m" + pad10 + "\x1b[m" + thumb},
		{"the long reset counts too", "\x1b[1mab\x1b[0m" + pad10, track, "\x1b[1mab\x1b[0m\x1b[8m" + pad10 + "\x1b[m" + track},
		{"a blank line is all padding", pad10, track, "\x1b[8m" + pad10 + "\x1b[m" + track},
		{"short padding stays plain", "ab   ", track, "ab   " + track},
		{"no padding", "abcd", track, "abcd" + track},
		{"padding after an unclosed style stays as it is", "\x1b[4mab" + pad10, track, "\x1b[4mab" + pad10 + track},
		{"an unstyled mark", "ab" + pad10, "│", "ab\x1b[8m" + pad10 + "\x1b[m│"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := withBar(c.line, c.mark)
			if got != c.want {
				t.Fatalf("withBar(%q, %q) = %q, want %q", c.line, c.mark, got, c.want)
			}
			if ansi.Strip(got) != ansi.Strip(c.line+c.mark) {
				t.Fatalf("the text changed: %q", ansi.Strip(got))
			}
		})
	}
}

func TestPadBefore(t *testing.T) {
	const pad10 = "          "
	for _, c := range []struct {
		name, line string
		w          int
		want       string
	}{
		{"long padding after plain text is hidden", "ab", 12, "ab\x1b[8m" + pad10 + "\x1b[m"},
		{"after a reset too", "\x1b[1mab\x1b[m", 12, "\x1b[1mab\x1b[m\x1b[8m" + pad10 + "\x1b[m"},
		{"short padding stays plain", "ab", 5, "ab   "},
		{"after an unclosed style it stays plain", "\x1b[4mab", 12, "\x1b[4mab" + pad10},
		{"a line that fills the width is left alone", "abcd", 4, "abcd"},
		{"a wider line is cut", "abcdef", 4, "abcd"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := padBefore(c.line, c.w)
			if got != c.want {
				t.Fatalf("padBefore(%q, %d) = %q, want %q", c.line, c.w, got, c.want)
			}
			if w := ansi.StringWidth(got); w != c.w {
				t.Fatalf("width %d, want %d", w, c.w)
			}
		})
	}
}
