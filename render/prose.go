package render

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Most of an agent's prose is paragraphs of words with some **strong**,
// *emphasised* and `code` spans, and glamour spends far longer on such a
// paragraph (a parse, a tree of elements, a writer per rune) than the
// line it makes is worth. A paragraph in that plain form is laid out here
// instead: each span in the style glamour gives its kind, learnt once by
// rendering a probe through glamour, joined as mergeRuns joins glamour's
// own runs. Anything the plain form does not cover (links, other inline
// syntax, escapes, entities, text glamour or the parser could treat
// specially) takes glamour. TestPlainParagraphIsGlamours holds the two
// equal.

// inlineKind is the kind of a span of a plain paragraph.
type inlineKind int

const (
	inlineText inlineKind = iota
	inlineStrong
	inlineEmph
	inlineCode
	inlineKinds
)

// inlineStyles are the SGR sequences glamour opens each kind of span with
// inside a paragraph; ok is false when a probe did not come out in the
// expected form (a theme that pads code spans, say), and then glamour
// renders every paragraph.
type inlineStyles struct {
	open   [inlineKinds]string
	bullet string // a bullet list item's mark, in text style ("" when the probe failed)
	enum   string // what follows an ordered item's number (the same)
	// heading holds, per level, what comes before and after the text of a
	// heading ("" before when the probe failed).
	heading [7][2]string
	ok      bool
}

// span is a piece of a plain paragraph.
type span struct {
	kind inlineKind
	text string
}

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

// line is the styled line of spans.
func (st *inlineStyles) line(spans []span) string {
	var b strings.Builder
	for _, s := range spans {
		b.WriteString(st.open[s.kind])
		b.WriteString(s.text)
		b.WriteString("\x1b[m")
	}
	return mergeRuns(b.String())
}

// inlineStyles learns, once per theme, how glamour styles each kind of
// span, from the unwrapped renderer's line for "a X c" with X a span of
// that kind.
func (r *Renderer) inlineStyles() *inlineStyles {
	if r.inline != nil {
		return r.inline
	}
	st := &inlineStyles{ok: true}
	r.inline = st
	probes := [inlineKinds]string{inlineText: "b", inlineStrong: "**b**", inlineEmph: "*b*", inlineCode: "`b`"}
	var text string
	for kind, probe := range probes {
		line, ok := r.probeLine("a " + probe + " c")
		if !ok {
			st.ok = false
			return st
		}
		if kind == int(inlineText) {
			// The whole line is one run of text: "\x1b[...ma b c\x1b[m".
			open, rest, found := strings.Cut(line, "a b c")
			if !found || rest != "\x1b[m" || leadingSGR(open) != len(open) {
				st.ok = false
				return st
			}
			text = open
			st.open[kind] = open
			continue
		}
		// "a " in text, b in the kind's style, " c" in text; merged when
		// the kind's style is the text's.
		head, tail := text+"a \x1b[m", "\x1b[m"+text+" c\x1b[m"
		inner, found := strings.CutPrefix(line, head)
		if inner, ok = strings.CutSuffix(inner, tail); !found || !ok || !strings.HasSuffix(inner, "b") {
			if line == text+"a b c\x1b[m" {
				st.open[kind] = text
				continue
			}
			st.ok = false
			return st
		}
		open := strings.TrimSuffix(inner, "b")
		if open == "" || leadingSGR(open) != len(open) {
			st.ok = false
			return st
		}
		st.open[kind] = open
	}
	// The spans put together must give glamour's own line for a paragraph
	// of every kind, soft break included.
	const check = "one **two** three\n*four* `five` six"
	spans, _ := plainSpans(check)
	if want, ok := r.probeLine(check); !ok || st.line(spans) != want {
		st.ok = false
		return st
	}
	// A list item is its mark in text style (a bullet, or the number
	// counted from the first item's), then its spans.
	if line, ok := r.probeLine("- b"); ok {
		st.bullet = strings.TrimSuffix(stripSGR(line), "b")
		if !r.listAsGlamour("- one **two**\n- `three` four") {
			st.bullet = ""
		}
	}
	if line, ok := r.probeLine("1. b"); ok {
		st.enum = strings.TrimSuffix(strings.TrimPrefix(stripSGR(line), "1"), "b")
		if !r.listAsGlamour("9. one **two**\n3. `three` four\n4. five") {
			st.enum = ""
		}
	}
	for level := 1; level <= 6; level++ {
		hashes := strings.Repeat("#", level)
		line, ok := r.probeLine(hashes + " Q")
		pre, post, found := strings.Cut(line, "Q")
		if !ok || !found || strings.Contains(post, "Q") {
			continue
		}
		st.heading[level] = [2]string{pre, post}
		const check = "One two: three (4)"
		if want, ok := r.probeLine(hashes + " " + check); !ok || want != pre+check+post {
			st.heading[level] = [2]string{}
		}
	}
	return st
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

// listAsGlamour reports whether plainList gives glamour's lines for src.
func (r *Renderer) listAsGlamour(src string) bool {
	lines, ok := r.plainList(src)
	return ok && strings.Join(r.probeLines(src), "\n") == strings.Join(lines, "\n")
}

// plainList returns the unwrapped lines glamour makes of src (after
// tidyStyled and mergeRuns) when src is a tight bullet list whose items
// are each one line in the plain form.
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

// probeLine renders src through the unwrapped renderer and returns its one
// shown line, tidied and merged.
func (r *Renderer) probeLine(src string) (string, bool) {
	lines := r.probeLines(src)
	if len(lines) != 1 {
		return "", false
	}
	return lines[0], true
}

// probeLines renders src through the unwrapped renderer and returns the
// lines that show something, tidied and merged.
func (r *Renderer) probeLines(src string) []string {
	out, err := r.render(r.unwrapped(), src, func() { r.flow = nil })
	if err != nil {
		return nil
	}
	var lines []string
	for l := range strings.SplitSeq(out, "\n") {
		if strings.TrimSpace(stripSGR(l)) != "" {
			lines = append(lines, mergeRuns(tidyStyled(l)))
		}
	}
	return lines
}

// plainSpans splits a paragraph's source into its spans when it is in the
// plain form: lines without leading or trailing blanks, joined by soft
// breaks (a space), of words (snake_case ones too) and plain punctuation,
// with **strong**,
// *emphasis* and `code` spans that open after a space or at a line's
// start and close before a space, a line's end or closing punctuation.
// Anything else, or anything a linker could take for an address, is not
// plain (ok false).
func plainSpans(src string) (spans []span, ok bool) {
	if strings.Contains(src, "://") || strings.Contains(strings.ToLower(src), "www.") {
		return nil, false
	}
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			spans = append(spans, span{inlineText, text.String()})
			text.Reset()
		}
	}
	for n, line := range strings.Split(src, "\n") {
		if line == "" || line[0] == ' ' || line[len(line)-1] == ' ' || n > 0 && !continues(line) {
			return nil, false
		}
		if n > 0 {
			text.WriteByte(' ')
		}
		for i := 0; i < len(line); {
			c := line[i]
			if c == '*' || c == '`' {
				kind, delim := inlineEmph, "*"
				switch {
				case c == '`':
					kind, delim = inlineCode, "`"
				case strings.HasPrefix(line[i:], "**"):
					kind, delim = inlineStrong, "**"
				}
				inner, end, ok := delimited(line, i, delim, kind == inlineCode)
				if !ok {
					return nil, false
				}
				flush()
				spans = append(spans, span{kind, inner})
				i = end
				continue
			}
			r, size := utf8.DecodeRuneInString(line[i:])
			if !plainRune(r) && !intraword(line, i) {
				return nil, false
			}
			text.WriteString(line[i : i+size])
			i += size
		}
	}
	flush()
	return spans, len(spans) > 0
}

// delimited reads the span line[i:] opens with delim: its inner text and
// where it ends. The opening must follow the line's start or a space and
// come before a letter or digit; the closing must follow a letter, digit
// or closing punctuation (for code: anything but a space) and come before
// the line's end, a space or closing punctuation. Inside, text is plain
// (for code: anything but a backtick, an ampersand, a backslash or a
// control character).
func delimited(line string, i int, delim string, code bool) (string, int, bool) {
	if i > 0 && line[i-1] != ' ' {
		return "", 0, false
	}
	start := i + len(delim)
	k := strings.Index(line[start:], delim)
	if k <= 0 {
		return "", 0, false
	}
	inner, end := line[start:start+k], start+k+len(delim)
	first, _ := utf8.DecodeRuneInString(inner)
	last, _ := utf8.DecodeLastRuneInString(inner)
	if end < len(line) && !closes(line[end]) {
		return "", 0, false
	}
	if code {
		// (glamour decodes entities even in code, which CommonMark does not.)
		if first == ' ' || last == ' ' || strings.ContainsAny(inner, "`&\\") {
			return "", 0, false
		}
		for _, r := range inner {
			if r < ' ' || r == 0x7f {
				return "", 0, false
			}
		}
		return inner, end, true
	}
	if !isAlnum(first) || !isAlnum(last) && !strings.ContainsRune(".!?)", last) {
		return "", 0, false
	}
	for k, r := range inner {
		if !plainRune(r) && !intraword(inner, k) {
			return "", 0, false
		}
	}
	return inner, end, true
}

// intraword reports whether s[i] is an underscore inside a word, between
// two letters or digits, like snake_case: an underscore there can neither
// open nor close emphasis, so it is text.
func intraword(s string, i int) bool {
	return s[i] == '_' && i > 0 && i+1 < len(s) && isAlnum(rune(s[i-1])) && isAlnum(rune(s[i+1]))
}

// continues reports whether a paragraph's next line plainly continues it:
// it starts with a word or a span, not with a mark an extension gives a
// meaning there (a definition's ":", say).
func continues(line string) bool {
	r, _ := utf8.DecodeRuneInString(line)
	return isAlnum(r) || strings.ContainsRune("\"'(*`", r) || r >= utf8.RuneSelf && unicode.IsLetter(r)
}

// closes reports whether c may follow a closing delimiter.
func closes(c byte) bool {
	return strings.IndexByte(" .,;:!?)", c) >= 0
}

func isAlnum(r rune) bool {
	return r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
}

// plainRune reports whether r is text no inline parser of glamour's
// goldmark (emphasis, code, links, autolinks, the linker, strikethrough,
// entities, escapes, raw HTML) can start at: letters, digits, spaces and
// plain punctuation, and non-ASCII letters and digits.
func plainRune(r rune) bool {
	switch {
	case isAlnum(r) || r == ' ':
		return true
	case r < utf8.RuneSelf:
		return strings.ContainsRune(".,;:?!'\"-/%+=$^{}()#", r)
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}
