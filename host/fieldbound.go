package host

import (
	"strconv"
	"strings"

	"github.com/lookout-sh/lookout/model"
)

// Which strings of an item the host keeps whole, and which it slices
// (docs/host.md, "Limits and flow control"). An agent's answer and its
// reasoning are what a person reads: they are whole text, kept up to
// TextBound, the client's own field bound. Every other string, tool
// output first, is sliced at FieldBound (seed 003).

// fieldBounds are a host's bounds of an item's strings, in bytes.
type fieldBounds struct {
	sliced int // every string that is not whole text
	text   int // each whole-text string
}

// boundsFor is the bounds of a host whose Options.FieldBound is option
// (0: FieldBound). The option replaces the sliced bound; it raises the
// text bound when it is larger, and never lowers it.
func boundsFor(option int) fieldBounds {
	sliced := FieldBound
	if option > 0 {
		sliced = option
	}
	return fieldBounds{sliced: sliced, text: max(TextBound, sliced)}
}

// of is the bound of the string at path in an item of kind.
func (b fieldBounds) of(kind, path string) int {
	if wholeText(kind, path) {
		return b.text
	}
	return b.sliced
}

// textMember is the top-level member that holds an item kind's whole
// text, "" for a kind without any.
func textMember(kind string) string {
	switch kind {
	case model.KindAgentMessage:
		return "text"
	case model.KindReasoning:
		return "summary"
	}
	return ""
}

// wholeText reports whether the string at path of an item of kind is
// whole text: an agent message's "text", a reasoning summary part
// ("summary.N").
func wholeText(kind, path string) bool {
	switch kind {
	case model.KindAgentMessage:
		return path == "text"
	case model.KindReasoning:
		n, ok := strings.CutPrefix(path, "summary.")
		i, err := strconv.Atoi(n) // as the fold reads an index
		return ok && err == nil && i >= 0
	}
	return false
}
