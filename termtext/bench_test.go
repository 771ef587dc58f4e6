package termtext

import (
	"strings"
	"testing"
)

// BenchmarkTextClean: 60 KB of clean output, the path nearly every render
// takes (a scan, no allocation).
func BenchmarkTextClean(b *testing.B) {
	s := strings.Repeat("ok  \u00e9 github.com/lookout-sh/lookout/sync 0.412s\n", 1200)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = Text(s)
	}
}

// BenchmarkTextProgressBars: 60 KB of output whose 1,000 lines each
// redraw a progress bar ten times with a bare CR. A CR costs O(1): the
// lines before it are not copied again.
func BenchmarkTextProgressBars(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 1000; i++ {
		for p := 0; p < 10; p++ {
			sb.WriteString("\r\x1b[32m[####  ]\x1b[m")
		}
		sb.WriteString("\n")
	}
	s := sb.String()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = Text(s)
	}
}

// BenchmarkVisibleCommand: a shell command with control characters, as
// shown for approval.
func BenchmarkVisibleCommand(b *testing.B) {
	s := "rm -rf ~\rls -la /tmp\t# \x1b]52;c;aGk=\x07 " + strings.Repeat("x", 200)
	for b.Loop() {
		_ = Visible(s)
	}
}
