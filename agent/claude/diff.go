package claude

import (
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// Diffs in fileChange items are unified diffs of one file from the first
// "@@" on, without the "---"/"+++" header (docs/protocol.md).

// diffHunks is the unified diff turning old into new, hunks only; "" when
// they are equal.
func diffHunks(old, new string) string {
	if old == new {
		return ""
	}
	u := udiff.Unified("a", "b", old, new)
	if i := strings.Index(u, "@@"); i >= 0 {
		return u[i:]
	}
	return ""
}

// addedDiff is the diff of a new file holding content: every line added.
func addedDiff(content string) string {
	if content == "" {
		return ""
	}
	return diffHunks("", content)
}

// patchHunk is one hunk of Claude Code's structuredPatch.
type patchHunk struct {
	OldStart int      `json:"oldStart"`
	OldLines int      `json:"oldLines"`
	NewStart int      `json:"newStart"`
	NewLines int      `json:"newLines"`
	Lines    []string `json:"lines"`
}

// patchDiff writes Claude Code's structuredPatch (hunks whose lines carry
// their " ", "-" or "+" already) as a unified diff.
func patchDiff(hunks []patchHunk) string {
	var b strings.Builder
	for _, h := range hunks {
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(h.OldStart, h.OldLines), hunkRange(h.NewStart, h.NewLines))
		for _, l := range h.Lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// hunkRange is "start,lines" as unified diffs write it ("start" alone for
// one line).
func hunkRange(start, lines int) string {
	if lines == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, lines)
}
