package cli

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFirstLine(t *testing.T) {
	long := strings.Repeat("a", 79) + "é" + "tail" // "é" starts at byte 79 and ends past 80
	cases := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"one short line", "hello", "hello"},
		{"the first of several lines", "first\nsecond", "first"},
		{"exactly the bound", strings.Repeat("x", 80), strings.Repeat("x", 80)},
		{"cut past the bound", strings.Repeat("x", 81), strings.Repeat("x", 80) + "…"},
		{"a rune across the bound is left out whole", long, strings.Repeat("a", 79) + "…"},
		{"multi-byte runes", strings.Repeat("日", 30), strings.Repeat("日", 26) + "…"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := firstLine(c.in)
			if got != c.want {
				t.Fatalf("firstLine(%q) = %q, want %q", c.in, got, c.want)
			}
			if !utf8.ValidString(got) {
				t.Fatalf("firstLine(%q) = %q is not valid UTF-8", c.in, got)
			}
		})
	}
}
