package render

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// fileChangeLines is how many diff lines a collapsed fileChange card shows
// across all its files; file headers always show.
const fileChangeLines = 12

// fileChange renders a set of file edits as a card: a header with the
// state and the file count, then per file a header (+ added, - deleted,
// ~ updated, → moved) and its unified diff, added lines in the success
// colour and removed lines in the error colour. Collapsed, the diffs
// share fileChangeLines lines and a note counts the rest. Diff text is
// shown with termtext.Visible (tabs expanded first): this is what a user
// approves, so no character of it may hide another.
func (r *Renderer) fileChange(it *model.Item, cw int, o ItemOptions) []string {
	t := r.theme
	changes := it.FileChanges()
	icon, label, style := "✎", "proposed", t.Warning
	switch it.Status {
	case model.StatusCompleted:
		icon, label, style = "✓", "applied", t.Success
	case model.StatusFailed:
		icon, label, style = "✗", "not applied", t.Error
	case model.StatusStopped:
		icon, label, style = "■", "stopped", t.Warning
	default:
		if live(it) {
			icon = spin(o, icon)
		}
		if it.TerminalUnknown {
			icon, label = "?", "ended: unknown"
		}
	}
	boxed := cw >= 10
	top, side, bottom := "", "", ""
	bw := cw
	if boxed {
		top, side, bottom = t.ToolBorder.Render("╭─")+" ", t.ToolBorder.Render("│")+" ", t.ToolBorder.Render("╰─")
		bw = cw - 2
	}
	lines := []string{clamp(top+style.Render(icon)+" "+t.ToolName.Render("Edit "+plural(len(changes), "file"))+
		t.Muted.Render(" · ")+style.Render(label), cw)}
	add := func(s lipgloss.Style, ls []string) {
		for _, l := range ls {
			lines = append(lines, side+s.Render(l))
		}
	}
	budget, hidden := fileChangeLines, 0
	for _, c := range changes {
		add(t.ToolName, wrapPlain(fileHeader(c), bw))
		for _, dl := range diffLines(c.Diff) {
			if !o.Expanded && budget <= 0 {
				hidden++
				continue
			}
			budget--
			add(diffStyle(r, dl), wrapPlain(termtext.VisibleLine(strings.ReplaceAll(dl, "\t", "    ")), bw))
		}
	}
	if hidden > 0 {
		add(t.Muted, wrapPlain("… "+plural(hidden, "more diff line"), bw))
	}
	if msg := it.ErrorMessage(); msg != "" {
		add(t.Error, wrapPlain(termtext.Text(msg), bw))
	}
	for _, n := range annotationTexts(it) {
		add(t.Warning, wrapPlain(n, bw))
	}
	if boxed {
		lines = append(lines, bottom)
	}
	return lines
}

// fileHeader names one file of a change with a sign for what happens to it.
func fileHeader(c model.FileChange) string {
	path := termtext.VisibleLine(c.Path)
	switch {
	case c.MovePath != "":
		return "→ " + path + " → " + termtext.VisibleLine(c.MovePath)
	case c.Kind == "add":
		return "+ " + path + " (new)"
	case c.Kind == "delete":
		return "- " + path + " (deleted)"
	}
	return "~ " + path
}

// diffLines splits a unified diff into its lines, without the final
// newline's empty line.
func diffLines(diff string) []string {
	if diff == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
}

// diffStyle colours one line of a unified diff by its first character.
func diffStyle(r *Renderer, line string) lipgloss.Style {
	t := r.theme
	switch {
	case strings.HasPrefix(line, "@@"):
		return t.Accent
	case strings.HasPrefix(line, "+"):
		return t.Success
	case strings.HasPrefix(line, "-"):
		return t.Error
	case strings.HasPrefix(line, `\`):
		return t.Muted
	}
	return t.Text
}
