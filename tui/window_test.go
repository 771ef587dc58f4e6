package tui

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestWithBar(t *testing.T) {
	const (
		track = "\x1b[38;2;1;2;3m│\x1b[m"
		thumb = "\x1b[38;2;4;5;6m┃\x1b[m"
	)
	for _, c := range []struct {
		name, line, mark, want string
	}{
		{"plain text keeps plain padding in the mark's style", "ab   ", track, "ab\x1b[38;2;1;2;3m   │\x1b[m"},
		{"a styled line closed by a reset", "\x1b[1mab\x1b[m  ", thumb, "\x1b[1mab\x1b[m\x1b[38;2;4;5;6m  ┃\x1b[m"},
		{"the long reset counts too", "\x1b[1mab\x1b[0m ", track, "\x1b[1mab\x1b[0m\x1b[38;2;1;2;3m │\x1b[m"},
		{"a blank line is all padding", "    ", track, "\x1b[38;2;1;2;3m    │\x1b[m"},
		{"no padding", "abcd", track, "abcd" + track},
		{"padding after an unclosed style stays as it is", "\x1b[4mab  ", track, "\x1b[4mab  " + track},
		{"an unstyled mark", "ab  ", "│", "ab  │"},
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
