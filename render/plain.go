package render

import (
	"strconv"
	"strings"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// Plain returns an item as plain text (markdown where the item is
// markdown), for copying with OSC 52; the markdown export
// (MarkdownTranscript) uses the same text. It is not cached and not
// styled: user and agent messages give their text as sent, reasoning its
// summary parts, a tool call its command line, output and exit, an error
// its message, and an unknown kind its kind, status and fields, then the
// item's notes (PlainNotes). A nil item gives "".
func (r *Renderer) Plain(it *model.Item) string { return plainText(it) }

// plainText is Plain: the item's text, then its notes.
func plainText(it *model.Item) string {
	if it == nil {
		return ""
	}
	return plainBody(it) + PlainNotes(it)
}

// plainBody is the kind-specific part of Plain.
func plainBody(it *model.Item) string {
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
			in = readableJSON(it.InputText())
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
	case model.KindQuestion:
		q := it.QuestionOf()
		b.WriteString("Question (" + it.Status + "): " + q.Text)
		for i, o := range q.Options {
			b.WriteString("\n" + strconv.Itoa(i+1) + ". " + o.Label)
			if o.Description != "" {
				b.WriteString(" — " + o.Description)
			}
		}
		if a, ok := it.AnswerOf(); ok {
			b.WriteString("\nanswer: " + QuestionAnswerText(a))
		}
	case model.KindPlan:
		p := it.PlanOf()
		b.WriteString("Plan " + PlanProgress(p) + " (" + it.Status + ")")
		for _, st := range p.Steps {
			b.WriteString("\n" + planStepPlain(st))
		}
		if e := termtext.Text(p.Explanation); e != "" {
			b.WriteString("\n" + e)
		}
	default:
		b.WriteString(it.Kind + " (" + it.Status + ")")
		for _, name := range it.FieldNames() {
			if name == "kind" || name == "status" {
				continue
			}
			b.WriteString("\n" + name + ": " + fieldText(it.Field(name)))
		}
	}
	return b.String()
}

// PlainNotes are what Plain, the markdown export and lookout send add
// after an item's text: a cut by the host or by Lookout, an end that is
// unknown or came with the host's death, each as "\n\n[note]"; "" for an
// item held whole that ended normally.
func PlainNotes(it *model.Item) string {
	var b strings.Builder
	for _, n := range HostCutNotes(it) {
		b.WriteString("\n\n[" + n + hostCutTail + "]")
	}
	for _, n := range ClientCutNotes(it.Cut) {
		b.WriteString("\n\n[" + n + "]")
	}
	switch {
	case it.TerminalUnknown:
		b.WriteString("\n\n[" + noteTerminalUnknown + "]")
	case it.EndedBy() == "hostDeath":
		b.WriteString("\n\n[" + noteHostDeath + "]")
	}
	return b.String()
}
