package render

import (
	"strconv"
	"strings"
)

// Most of an agent's prose is paragraphs, lists and headings of words
// with some **strong**, *emphasised* and `code` spans, and glamour spends
// far longer on such a block (a parse, a tree of elements, a writer per
// rune) than the line it makes is worth. A block in that plain form is
// laid out here instead: each span in the style glamour gives its kind
// (prose_styles.go: learnt once per theme by rendering probes through
// glamour), joined as mergeRuns joins glamour's own runs. What the plain
// form is, is prose_spans.go's. Anything else (links, other inline syntax,
// escapes, entities, text glamour or the parser could treat specially)
// takes glamour. TestPlainParagraphIsGlamours, TestPlainListIsGlamours,
// TestPlainBlocksAreGlamours and FuzzPlainProse hold the two equal.

// plainParagraph returns the unwrapped line glamour makes of src (after
// tidyStyled and mergeRuns) when src is a paragraph in the plain form.
func (r *Renderer) plainParagraph(src string) (string, bool) {
	if !isParagraph(src) {
		return "", false
	}
	spans, ok := plainSpans(strings.Trim(src, "\n"))
	if !ok {
		return "", false
	}
	st := r.inlineStyles()
	if !st.ok {
		return "", false
	}
	return st.line(spans), true
}

// plainHeading returns the line glamour makes of src (tidied and merged)
// when src is one ATX heading of plain words, without spans or a closing
// run of #.
func (r *Renderer) plainHeading(src string) (string, bool) {
	level := 0
	for level < len(src) && src[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || level+1 >= len(src) || src[level] != ' ' {
		return "", false
	}
	text := src[level+1:]
	if strings.ContainsAny(text, "#\n") {
		return "", false
	}
	spans, ok := plainSpans(text)
	st := r.inlineStyles()
	if !ok || len(spans) != 1 || spans[0].kind != inlineText || !st.ok || st.heading[level][0] == "" {
		return "", false
	}
	return st.heading[level][0] + text + st.heading[level][1], true
}

// plainBlocks lays out src when each of its blocks (separated by blank
// lines) is a plain paragraph, list or heading: their lines, a blank line
// between blocks, which is how glamour's render of the whole reads once
// markdownWith has collapsed its blank lines.
func (r *Renderer) plainBlocks(src string) (string, bool) {
	var b strings.Builder
	lastList := false
	for block := range strings.SplitSeq(strings.Trim(src, "\n"), "\n\n") {
		if block == "" {
			continue
		}
		if strings.TrimSpace(block) != block || strings.Contains(block, "\n ") || strings.Contains(block, " \n") {
			return "", false
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		list := false
		if line, ok := r.plainParagraph(block); ok {
			b.WriteString(line)
		} else if lines, ok := r.plainList(block); ok && !lastList {
			// (A list right after a list is the same list, made loose.)
			b.WriteString(strings.Join(lines, "\n"))
			list = true
		} else if line, ok := r.plainHeading(block); ok {
			b.WriteString(line)
		} else {
			return "", false
		}
		lastList = list
	}
	return b.String(), b.Len() > 0
}

// plainList returns the unwrapped lines glamour makes of src (after
// tidyStyled and mergeRuns) when src is a tight list, bulleted or
// numbered, whose items are each one line in the plain form.
func (r *Renderer) plainList(src string) ([]string, bool) {
	if !isTightList(src) {
		return nil, false
	}
	st := r.inlineStyles()
	if !st.ok {
		return nil, false
	}
	var lines []string
	start := -1
	for line := range strings.SplitSeq(strings.Trim(src, "\n"), "\n") {
		_, _, num := listItemInfo(line)
		mark, text, _ := strings.Cut(line, " ")
		if text == "" || text[0] == ' ' {
			return nil, false
		}
		switch {
		case len(mark) == 1 && st.bullet != "":
			mark = st.bullet
		case len(mark) > 1 && st.enum != "":
			if start < 0 {
				start = num
			}
			mark = strconv.Itoa(start+len(lines)) + st.enum
		default:
			return nil, false
		}
		spans, ok := plainSpans(text)
		if !ok {
			return nil, false
		}
		lines = append(lines, st.line(append([]span{{inlineText, mark}}, spans...)))
	}
	return lines, true
}
