package render

import (
	"strconv"
	"strings"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// Notes shown on items whose end was not an ordinary terminal, and on
// items this client cut at its own bound.
const (
	noteTerminalUnknown = "ended: unknown — host lost"
	noteHostDeath       = "interrupted by host restart"
	noteCutTail         = ": the host sent more than the protocol allows"
)

// annotationTexts are the notes for an item the host cut (its
// "truncated" fields), for one this client cut at its bound
// (model.ItemCut: which fields, at what size), then for an item that ended
// abnormally: open when its ephemeral host was lost (TerminalUnknown), or
// terminated by a durable host's restart (endedBy hostDeath). nil for an
// item held whole that ended normally.
func annotationTexts(it *model.Item) []string {
	var notes []string
	for _, n := range HostCutNotes(it) {
		notes = append(notes, "⚠ "+n)
	}
	for _, n := range ClientCutNotes(it.Cut) {
		notes = append(notes, "⚠ "+n)
	}
	switch {
	case it.TerminalUnknown:
		notes = append(notes, "⚠ "+noteTerminalUnknown)
	case it.EndedBy() == "hostDeath":
		notes = append(notes, "⚠ "+noteHostDeath)
	}
	return notes
}

// HostCutNotes say which fields of it the host cut at its bound, one
// clean line each: "text truncated by host". The screen, the plain text
// and lookout watch write them; nil for an item the host kept whole.
func HostCutNotes(it *model.Item) []string {
	var notes []string
	for _, f := range hostCutFields(it) {
		notes = append(notes, f+" truncated by host")
	}
	return notes
}

// ClientCutNotes say what this client cut at its own bound (c may be
// nil): "text cut by Lookout at 1 MiB: ...", and the item bound's note.
func ClientCutNotes(c *model.ItemCut) []string {
	if c == nil {
		return nil
	}
	var notes []string
	if len(c.Fields) > 0 {
		notes = append(notes, cutNote(c.Fields, c.FieldBound))
	}
	if c.ItemBound > 0 {
		notes = append(notes, cutNote(nil, c.ItemBound))
	}
	return notes
}

// hostCutFields names the fields the host cut at its field bound (the
// item's "truncated" member), each one clean line; "content" for an item
// the host marked truncated whole.
func hostCutFields(it *model.Item) []string {
	var out []string
	for _, f := range it.TruncatedFields() {
		if f == "*" {
			f = "content"
		}
		out = append(out, termtext.Line(f))
	}
	return out
}

// hostCutTail is what the plain text and the export add to a field the
// host cut: where the text stops, nothing more of it exists in Lookout.
const hostCutTail = ": the host kept only its first bytes (its field bound); the rest is not in Lookout"

// cutNote says what this client cut: "text cut by Lookout at 1 MiB: ...",
// or the whole item when fields is nil.
func cutNote(fields []string, bound int) string {
	what := "item"
	if len(fields) > 0 {
		what = termtext.Line(strings.Join(fields, ", "))
	}
	return what + " cut by Lookout at " + sizeText(bound) + noteCutTail
}

// sizeText writes a byte count the way the bounds are set: "1 MiB",
// "64 KiB", else bytes.
func sizeText(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + " KiB"
	}
	return strconv.Itoa(n) + " bytes"
}

// annotationLines are annotationTexts wrapped to width and styled, each
// line behind prefix; nil for an item with no note.
func (r *Renderer) annotationLines(it *model.Item, prefix string, width int) []string {
	var lines []string
	for _, a := range annotationTexts(it) {
		lines = append(lines, prefixLines(prefix, prefix, styleLines(r.theme.Warning, wrapPlain(a, width)))...)
	}
	return lines
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
