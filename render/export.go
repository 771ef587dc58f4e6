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
// transcript: MarkdownHead, then MarkdownItem for each item, then
// MarkdownTail. The UI's export key uses it; `lookout export --format
// markdown` writes the same pieces as it streams a session out.
// Everything in it comes from the host, and it is printed to a terminal
// as often as to a file, so it goes through termtext: titles and headings
// as one line (Line), bodies as text (Text), a tool's name and input as
// Visible (what was approved, whole), an unknown item's JSON with JSON.
func MarkdownTranscript(v *model.View) string {
	var b strings.Builder
	b.WriteString(MarkdownHead(v.SessionID, v.Values["title"], v.Values["costUsd"]))
	for _, it := range v.Items {
		b.WriteString(MarkdownItem(it))
	}
	b.WriteString(MarkdownTail(v.ActiveTurn, v.QueuedTurns))
	return b.String()
}

// MarkdownHead is the transcript's title line: the session's title (its
// "title" state value, a JSON string), else "Session <id>"; and, when the
// agent reports one ("costUsd"), the session's cost so far.
func MarkdownHead(sessionID string, title, cost json.RawMessage) string {
	t := ""
	if title != nil {
		_ = json.Unmarshal(title, &t)
	}
	if t = termtext.Line(t); t == "" {
		t = "Session " + termtext.Line(sessionID)
	}
	head := "# " + t + "\n"
	if c := CostText(cost); c != "" {
		head += "\n_Cost: " + c + " (as the agent reports it)_\n"
	}
	return head
}

// MarkdownTail is what follows the items: the turn still running and the
// queued prompts, if any.
func MarkdownTail(active *model.ActiveTurn, queued []model.QueuedTurn) string {
	var b strings.Builder
	if active != nil {
		fmt.Fprintf(&b, "\n_Turn %s is still running._\n", termtext.Line(active.TurnID))
	}
	for _, q := range queued {
		fmt.Fprintf(&b, "\n_Queued:_ %s\n", termtext.Text(q.Text))
	}
	return b.String()
}

// MarkdownItem is one item's section: a blank line, a heading naming the
// item (and its status unless completed), and its body. Messages,
// reasoning and errors give Plain's text; a tool call gives its input and
// output as code blocks, a file change a patch per file, an unknown kind
// its JSON. Every kind ends with Plain's notes (a cut, an unknown end).
func MarkdownItem(it *model.Item) string {
	var b strings.Builder
	b.WriteString("\n")
	writeItemMarkdown(&b, it)
	return b.String()
}

func writeItemMarkdown(w io.Writer, it *model.Item) {
	status := ""
	if it.Status != "" && it.Status != model.StatusCompleted {
		status = " (" + termtext.Line(it.Status) + ")"
	}
	switch it.Kind {
	case model.KindUserMessage:
		if it.Steered() {
			status = " (into the running turn)" + status
		}
		fmt.Fprintf(w, "## User%s\n\n%s\n", status, termtext.Text(plainText(it)))
		return // plainText carries the notes
	case model.KindAgentMessage:
		fmt.Fprintf(w, "## Agent%s\n\n%s\n", status, termtext.Text(plainText(it)))
		return
	case model.KindReasoning:
		fmt.Fprintf(w, "## Reasoning%s\n\n", status)
		if body := termtext.Text(plainBody(it)); body != "" {
			fmt.Fprintf(w, "> %s\n", strings.ReplaceAll(body, "\n", "\n> "))
		}
	case model.KindToolCall:
		fmt.Fprintf(w, "## Tool: %s%s\n\n", termtext.VisibleLine(it.ToolName()), status)
		if in := readableJSON(it.InputText()); in != "" {
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
	case model.KindQuestion:
		var b strings.Builder
		writeQuestionMarkdown(&b, it, status)
		_, _ = io.WriteString(w, b.String())
	case model.KindPlan:
		var b strings.Builder
		writePlanMarkdown(&b, it, status)
		_, _ = io.WriteString(w, b.String())
	default:
		raw, _ := it.MarshalJSON()
		raw = []byte(readableJSON(string(raw)))
		fmt.Fprintf(w, "## %s%s\n\n```json\n%s\n```\n", termtext.Line(it.Kind), status, termtext.JSON(raw))
	}
	if notes := PlainNotes(it); notes != "" {
		fmt.Fprintf(w, "%s\n", termtext.Text(notes[1:]))
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
