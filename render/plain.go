package render

import (
	"strconv"
	"strings"

	"github.com/lookout-sh/lookout/model"
)

// Plain returns an item as plain text (markdown where the item is
// markdown), for copying with OSC 52 and for export. It is not cached and
// not styled: user and agent messages give their text as sent, reasoning
// its summary parts, a tool call its command line, output and exit, an
// error its message, and an unknown kind its kind, status and fields. A
// nil item gives "".
func (r *Renderer) Plain(it *model.Item) string {
	if it == nil {
		return ""
	}
	var b strings.Builder
	switch it.Kind {
	case model.KindUserMessage, model.KindAgentMessage:
		b.WriteString(it.Text())
	case model.KindReasoning:
		for i, p := range it.Summary() {
			if i > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(strings.TrimSpace(p))
		}
	case model.KindToolCall:
		name := it.ToolName()
		if name == "" {
			name = "tool"
		}
		b.WriteString(name)
		b.WriteString(" (" + it.Status + ")")
		in := ""
		if it.Has("input") {
			in = toolInput(it)
		}
		if in == "" {
			in = it.InputText()
		}
		if in != "" {
			b.WriteString("\n" + strings.TrimRight(in, "\n"))
		}
		if out := it.Output(); out != "" {
			b.WriteString("\n\n" + strings.TrimRight(out, "\n"))
		}
		if msg := it.ErrorMessage(); msg != "" {
			b.WriteString("\n\nerror: " + msg)
		}
		if code, ok := it.ExitCode(); ok {
			b.WriteString("\n\nexit " + strconv.FormatInt(code, 10))
		}
	case model.KindContextCompaction:
		if it.Status == model.StatusFailed {
			b.WriteString("--- compaction failed ---")
		} else {
			b.WriteString("--- context compacted ---")
		}
	case model.KindError:
		b.WriteString("Error: " + it.ErrorMessage())
	default:
		b.WriteString(it.Kind + " (" + it.Status + ")")
		for _, name := range it.FieldNames() {
			if name == "kind" || name == "status" {
				continue
			}
			b.WriteString("\n" + name + ": " + fieldText(it.Field(name)))
		}
	}
	if c := it.Cut; c != nil {
		if len(c.Fields) > 0 {
			b.WriteString("\n\n[" + cutNote(c.Fields, c.FieldBound) + "]")
		}
		if c.ItemBound > 0 {
			b.WriteString("\n\n[" + cutNote(nil, c.ItemBound) + "]")
		}
	}
	switch {
	case it.TerminalUnknown:
		b.WriteString("\n\n[" + noteTerminalUnknown + "]")
	case it.EndedBy() == "hostDeath":
		b.WriteString("\n\n[" + noteHostDeath + "]")
	}
	return b.String()
}
