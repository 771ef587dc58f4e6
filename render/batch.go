package render

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// A message cut around its code blocks has a prose part between every two
// of them, and every glamour call has a fixed cost (a parser, a renderer
// context, the document's block) besides the cost of its bytes. The prose
// parts that fit unwrapped are rendered together, in one call, each after
// a separator paragraph, and the output is cut again at the separators'
// lines. The separator is a block of its own between blank lines: what
// comes before it and after it renders as it would alone, and the caller
// collapses the blank lines around the pieces as it does between parts.

// partSeparator is the paragraph put between batched parts. A part that
// holds it as a paragraph of its own shows one separator too many, and
// the parts are then rendered one by one.
const partSeparator = "LOOKOUTPARTSEPARATOR7F3A"

// batchProse renders the prose parts of parts that can go together (see
// batchable), at the glamour renderer key's wrap width. Each is cut where
// a blank line ends a block, as prose cuts a message that does not fit;
// the pieces in the plain form are laid out without glamour (plainBlocks)
// and the others rendered together in one unwrapped glamour call. out[i]
// is set, and done[i], for each part whose pieces all fit; the others are
// left to the caller.
func (r *Renderer) batchProse(parts []mdPart, key int, out []string, done []bool) {
	limit := wrapFor(key) - fitSlack
	if limit <= 0 {
		return
	}
	type piece struct {
		part      int
		text, out string
		done      bool
	}
	var pieces []piece
	var glamoured []int // the pieces for glamour
	for i, p := range parts {
		if p.code || !batchable(p.text, limit) {
			continue
		}
		cuts := blockCuts(p.text)
		for k := 1; k < len(cuts); k++ {
			pc := piece{part: i, text: p.text[cuts[k-1]:cuts[k]]}
			if o, ok := r.plainBlocks(pc.text); ok && fitsWithin(o, limit) {
				pc.out, pc.done = o, true
			} else {
				glamoured = append(glamoured, len(pieces))
			}
			pieces = append(pieces, pc)
		}
	}
	if len(glamoured) >= 2 {
		var b strings.Builder
		for k, i := range glamoured {
			if k > 0 {
				b.WriteString("\n\n" + partSeparator + "\n\n")
			}
			b.WriteString(pieces[i].text)
		}
		if rendered, err := r.render(r.unwrapped(), b.String(), func() { r.flow = nil }); err == nil {
			if outs := cutAtSeparators(rendered, len(glamoured)); outs != nil {
				for k, i := range glamoured {
					if fitsWithin(outs[k], limit) {
						pieces[i].out, pieces[i].done = outs[k], true
					}
				}
			}
		}
	}
	for k := 0; k < len(pieces); {
		i := pieces[k].part
		var b strings.Builder
		ok := true
		for ; k < len(pieces) && pieces[k].part == i; k++ {
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(pieces[k].out)
			ok = ok && pieces[k].done
		}
		if ok {
			out[i], done[i] = b.String(), true
		}
	}
}

// batchable reports whether a prose part can be rendered with others: it
// fits unwrapped (mayFit), holds nothing that serves or spaces the text
// around it (holdsTogether), ends outside any fence (a separator after it
// would be code), and does not start with a ':' line (which could make
// the separator before it a definition's term).
func batchable(text string, limit int) bool {
	first := strings.TrimLeft(text, " \t\n")
	return first != "" && first[0] != ':' && mayFit(text, limit) && !holdsTogether(text) && !endsInFence(text)
}

// endsInFence reports whether a fence line (at any indentation) opens a
// block that no later fence line closes.
func endsInFence(src string) bool {
	var fenceChar byte
	fenceLen := 0
	for line := range strings.SplitSeq(src, "\n") {
		ch, n, rest := fenceMarker(line)
		switch {
		case n < 3:
		case fenceChar == 0 && (ch == '~' || !strings.ContainsRune(rest, '`')):
			fenceChar, fenceLen = ch, n
		case fenceChar == ch && n >= fenceLen && strings.TrimSpace(rest) == "":
			fenceChar = 0
		}
	}
	return fenceChar != 0
}

// cutAtSeparators cuts rendered output at its separator lines into n
// pieces, or returns nil when it does not have n-1 of them.
func cutAtSeparators(rendered string, n int) []string {
	pieces := make([]string, 0, n)
	start := 0
	for pos := 0; pos <= len(rendered); {
		end := strings.IndexByte(rendered[pos:], '\n')
		if end < 0 {
			end = len(rendered)
		} else {
			end += pos
		}
		if line := rendered[pos:end]; strings.Contains(line, partSeparator) && strings.TrimSpace(ansi.Strip(line)) == partSeparator {
			pieces = append(pieces, rendered[start:pos])
			start = min(end+1, len(rendered))
		}
		pos = end + 1
	}
	pieces = append(pieces, rendered[start:])
	if len(pieces) != n {
		return nil
	}
	return pieces
}
