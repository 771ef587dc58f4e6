package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// MarkdownTranscript renders a session's view as a readable markdown
// transcript: `lookout export --format markdown` and the UI's export key
// use it.
// Everything in it comes from the host, and it is printed to a terminal
// as often as to a file, so it goes through termtext: titles and headings
// as one line (Line), bodies as text (Text), a tool's name and input as
// Visible (what was approved, whole), an unknown item's JSON with JSON.
func MarkdownTranscript(v *model.View) string {
	var b strings.Builder
	title := ""
	if raw := v.Values["title"]; raw != nil {
		_ = json.Unmarshal(raw, &title)
	}
	if title = termtext.Line(title); title == "" {
		title = "Session " + termtext.Line(v.SessionID)
	}
	fmt.Fprintf(&b, "# %s\n", title)
	for _, it := range v.Items {
		b.WriteString("\n")
		writeItemMarkdown(&b, it)
	}
	if a := v.ActiveTurn; a != nil {
		fmt.Fprintf(&b, "\n_Turn %s is still running._\n", termtext.Line(a.TurnID))
	}
	for _, q := range v.QueuedTurns {
		fmt.Fprintf(&b, "\n_Queued:_ %s\n", termtext.Text(q.Text))
	}
	return b.String()
}

func writeItemMarkdown(w io.Writer, it *model.Item) {
	status := ""
	if it.Status != "" && it.Status != model.StatusCompleted {
		status = " (" + termtext.Line(it.Status) + ")"
	}
	switch it.Kind {
	case model.KindUserMessage:
		fmt.Fprintf(w, "## User%s\n\n%s\n", status, termtext.Text(it.Text()))
	case model.KindAgentMessage:
		fmt.Fprintf(w, "## Agent%s\n\n%s\n", status, termtext.Text(it.Text()))
	case model.KindReasoning:
		fmt.Fprintf(w, "## Reasoning%s\n\n", status)
		for _, s := range it.Summary() {
			fmt.Fprintf(w, "> %s\n", strings.ReplaceAll(termtext.Text(s), "\n", "\n> "))
		}
	case model.KindToolCall:
		fmt.Fprintf(w, "## Tool: %s%s\n\n", termtext.VisibleLine(it.ToolName()), status)
		if in := it.InputText(); in != "" {
			fmt.Fprintf(w, "Input:\n\n```\n%s\n```\n\n", termtext.Visible(in))
		}
		if out := it.Output(); out != "" {
			fmt.Fprintf(w, "Output:\n\n```\n%s\n```\n", termtext.Text(out))
		}
		if code, ok := it.ExitCode(); ok {
			fmt.Fprintf(w, "\nExit code: %d\n", code)
		}
		if msg := it.ErrorMessage(); msg != "" {
			fmt.Fprintf(w, "\nError: %s\n", termtext.Text(msg))
		}
	case model.KindError:
		fmt.Fprintf(w, "## Error\n\n%s\n", termtext.Text(it.ErrorMessage()))
	case model.KindContextCompaction:
		fmt.Fprintf(w, "## Context compacted%s\n", status)
	case model.KindFileChange:
		writeFileChangeMarkdown(w, it, status)
	default:
		raw, _ := it.MarshalJSON()
		fmt.Fprintf(w, "## %s%s\n\n```json\n%s\n```\n", termtext.Line(it.Kind), status, termtext.JSON(raw))
	}
}

// writeFileChangeMarkdown exports a fileChange as one diff block per file,
// with git-style ---/+++ headers so that tools reading the export see a
// patch.
func writeFileChangeMarkdown(w io.Writer, it *model.Item, status string) {
	changes := it.FileChanges()
	fmt.Fprintf(w, "## File changes%s\n", status)
	for _, c := range changes {
		from, to := "a/"+c.Path, "b/"+c.Path
		switch {
		case c.Kind == "add":
			from = "/dev/null"
		case c.Kind == "delete":
			to = "/dev/null"
		case c.MovePath != "":
			to = "b/" + c.MovePath
		}
		fmt.Fprintf(w, "\n```diff\n--- %s\n+++ %s\n%s", termtext.Line(from), termtext.Line(to), visibleKeepingTabs(c.Diff))
		if c.Diff != "" && !strings.HasSuffix(c.Diff, "\n") {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, "```")
	}
	if msg := it.ErrorMessage(); msg != "" {
		fmt.Fprintf(w, "\nError: %s\n", termtext.Text(msg))
	}
}

// visibleKeepingTabs is termtext.Visible for code: tabs stay tabs (they
// move no cursor past the text) while every other control shows.
func visibleKeepingTabs(s string) string {
	parts := strings.Split(s, "\t")
	for i, p := range parts {
		parts[i] = termtext.Visible(p)
	}
	return strings.Join(parts, "\t")
}
