package claude

import (
	"fmt"
	"strings"

	"github.com/lookout-sh/lookout/agent/bridge"
)

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
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", bridge.HunkRange(h.OldStart, h.OldLines), bridge.HunkRange(h.NewStart, h.NewLines))
		for _, l := range h.Lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
