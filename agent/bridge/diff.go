package bridge

import (
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// A fileChange's diff is a unified diff of one file from its first "@@" on,
// without the "---"/"+++" header (docs/protocol.md). Every bridge makes
// them here, so one change renders the same whichever agent made it.

// DiffHunks is the unified diff turning old into new, hunks only; "" when
// they are equal.
func DiffHunks(old, new string) string {
	if old == new {
		return ""
	}
	return Hunks(udiff.Unified("a", "b", old, new))
}

// WholeFileDiff is the diff of a file created holding content (add) or
// deleted holding it (delete): every line added or removed, in one hunk.
// "" for an empty file.
func WholeFileDiff(deleted bool, content string) string {
	if content == "" {
		return ""
	}
	lines := strings.SplitAfter(content, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	sign, header := "+", fmt.Sprintf("@@ -0,0 +%s @@\n", HunkRange(1, len(lines)))
	if deleted {
		sign, header = "-", fmt.Sprintf("@@ -%s +0,0 @@\n", HunkRange(1, len(lines)))
	}
	var b strings.Builder
	b.Grow(len(content) + len(lines) + len(header) + 32)
	b.WriteString(header)
	for _, l := range lines {
		b.WriteString(sign)
		b.WriteString(l)
	}
	if !strings.HasSuffix(content, "\n") {
		b.WriteString("\n\\ No newline at end of file\n")
	}
	return b.String()
}

// Hunks is a unified diff from its first hunk on: the "diff", "Index",
// "===" and "---"/"+++" lines before it are left out; "" without a hunk.
func Hunks(diff string) string {
	if strings.HasPrefix(diff, "@@") {
		return diff
	}
	if i := strings.Index(diff, "\n@@"); i >= 0 {
		return diff[i+1:]
	}
	return ""
}

// DiffKind reads add, delete or update from a diff's first hunk header.
func DiffKind(diff string) string {
	first, _, _ := strings.Cut(diff, "\n")
	switch {
	case strings.HasPrefix(first, "@@ -0,0 "):
		return "add"
	case strings.Contains(first, " +0,0 @@"):
		return "delete"
	}
	return "update"
}

// HunkRange is a hunk header's "start,lines", written as unified diffs
// write it: "start" alone for one line.
func HunkRange(start, lines int) string {
	if lines == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, lines)
}
