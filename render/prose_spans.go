package render

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// plainSpans splits a paragraph's source into its spans when it is in the
// plain form: lines without leading or trailing blanks, joined by soft
// breaks (a space), of words (snake_case ones too) and plain punctuation,
// with **strong**, *emphasis* and `code` spans that open after a space or
// at a line's start and close before a space, a line's end or closing
// punctuation.
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
