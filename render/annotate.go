package render

import (
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// Notes shown on items whose end was not an ordinary terminal.
const (
	noteTerminalUnknown = "ended: unknown — host lost"
	noteHostDeath       = "interrupted by host restart"
)

// annotationText is the note for an item that ended abnormally: open when
// its ephemeral host was lost (TerminalUnknown), or terminated by a
// durable host's restart (endedBy hostDeath). It is "" for other items.
func annotationText(it *model.Item) string {
	switch {
	case it.TerminalUnknown:
		return "⚠ " + noteTerminalUnknown
	case it.EndedBy() == "hostDeath":
		return "⚠ " + noteHostDeath
	}
	return ""
}

// annotationLines is annotationText wrapped to width and styled, each line
// behind prefix; nil for an item that ended normally.
func (r *Renderer) annotationLines(it *model.Item, prefix string, width int) []string {
	a := annotationText(it)
	if a == "" {
		return nil
	}
	return prefixLines(prefix, prefix, styleLines(r.theme.Warning, wrapPlain(a, width)))
}

// spin is the mark drawn on an item that is still running: the caller's
// spinner frame, or a static mark when there is none.
func spin(o ItemOptions, static string) string {
	if o.Spinner != "" {
		return termtext.Line(o.Spinner)
	}
	return static
}

// live reports whether an item is still changing and should show a
// spinner: open, and not given up as terminal-unknown.
func live(it *model.Item) bool { return it.IsOpen() && !it.TerminalUnknown }
