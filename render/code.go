package render

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// A top-level fenced code block is most of the cost of a code-heavy
// message in glamour: every byte of its highlighted lines passes through
// three writers of the block and three of the document, each parsing the
// escape sequences again. Its tidied lines are simple, though: the
// document's margin, then chroma's tokens, each in its style's escape
// sequence and reset, a token that runs onto the next line taking its
// style up again after the margin. codeLines makes exactly those lines
// from the tokens; the tests hold them to glamour's, byte for byte. (A
// token in a style of several escape sequences that runs onto the next
// line is left to glamour, whose writers restore the style there as one.)

// codeLines renders a fenced code block (a part splitFences made) as
// glamour does, for a block that fits limit cells. ok is false when the
// block is not one it handles (an indented fence, an unusual info
// string, a line too wide, a theme without a named chroma style); the
// caller renders it with glamour then.
func (r *Renderer) codeLines(src string, limit int) (out string, ok bool) {
	lang, code, ok := parseFence(src)
	if !ok {
		return "", false
	}
	margin, ok := r.codeMargin()
	if !ok {
		return "", false
	}
	lexer := lexerNamed(lang)
	if lexer == nil {
		lexer = lexers.Analyse(code)
	}
	if lexer == nil {
		lexer = lexers.Fallback
	}
	style := styles.Get(r.theme.Markdown.CodeBlock.Theme)
	if style == nil {
		style = styles.Fallback
	}
	it, err := chroma.Coalesce(withFastRules(lexer)).Tokenise(nil, code)
	if err != nil {
		return "", false
	}
	theme := highlighter.theme(style)
	var b, line strings.Builder
	line.WriteString(margin)
	endLine := func() bool {
		l := tidyStyled(line.String())
		if len(l) > limit && CellWidth(l) > limit {
			return false
		}
		b.WriteString(l)
		b.WriteByte('\n')
		line.Reset()
		line.WriteString(margin)
		return true
	}
	for token := it(); token != chroma.EOF; token = it() {
		esc := theme.escape(token.Type)
		piece := 0 // pieces after the first start a new line
		for part := range strings.SplitSeq(token.Value, "\n") {
			if piece++; piece > 1 && !endLine() {
				return "", false
			}
			if part == "" {
				continue
			}
			if piece > 1 && !theme.resumes[esc] {
				return "", false // glamour takes the style up again in another form
			}
			line.WriteString(esc)
			line.WriteString(part)
			if esc != "" {
				line.WriteString("\x1b[0m")
			}
		}
	}
	if !endLine() {
		return "", false
	}
	return b.String(), true
}

// lexerNames memoises lexers.Get, which for a name it does not know (or
// none, the usual bare fence) tries every lexer's filename patterns: a
// few milliseconds, on every render of such a block.
var lexerNames = newMemo[string, chroma.Lexer](maxLexerNames)

// maxLexerNames bounds the names remembered (they come from the text).
const maxLexerNames = 256

// lexerNamed is lexers.Get(name), nil included, remembered.
func lexerNamed(name string) chroma.Lexer { return lexerNames.get(name, lexers.Get) }

// codeMargin is the document margin glamour puts before every line of a
// code block, tidied, worked out once per theme by rendering a probe
// block through glamour. ok is false when the probe's line is not the
// margin followed by the probe's token, as codeLines would make it.
func (r *Renderer) codeMargin() (string, bool) {
	if r.margin != nil {
		return *r.margin, *r.margin != ""
	}
	margin := ""
	if r.theme.Markdown.CodeBlock.Chroma == nil && r.theme.Markdown.CodeBlock.Theme != "" {
		const probe = "```\nX\n```\n"
		out, err := r.render(r.unwrapped(), probe, func() { r.flow = nil })
		style := styles.Get(r.theme.Markdown.CodeBlock.Theme)
		if err == nil && style != nil {
			esc := highlighter.theme(style).escape(chroma.Text)
			token := tidyStyled(esc + "X" + "\x1b[0m")
			for l := range strings.SplitSeq(out, "\n") {
				if l = tidyStyled(l); strings.HasSuffix(l, token) && strings.Trim(stripSGR(l[:len(l)-len(token)]), " ") == "" {
					margin = l[:len(l)-len(token)]
				}
			}
		}
	}
	r.margin = &margin
	return margin, margin != ""
}

// stripSGR drops the SGR sequences of s.
func stripSGR(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if n := leadingSGR(s[i:]); n > 0 {
			i += n
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// resumesAsIs reports whether glamour's writers, restoring the style of
// esc at the start of the next line, write esc itself (they write the
// style as lipgloss reads it back, which for several sequences is one).
func resumesAsIs(esc string) bool {
	out := lipgloss.Wrap(esc+"a\nb", 0, "")
	start := strings.IndexByte(out, '\n') + 1
	end := strings.LastIndexByte(out, 'b')
	return start > 0 && end >= start && out[start:end] == esc
}

// parseFence splits a fenced code block that opens at column 0 and
// closes on a line of its own at column 0, or runs to the end of src,
// into its language (the info string's first word) and its code, as
// goldmark reads them. ok is false for any other shape.
func parseFence(src string) (lang, code string, ok bool) {
	open, rest, found := strings.Cut(src, "\n")
	ch, n, info := fenceMarker(open)
	if !found || n < 3 || open[0] != ch {
		return "", "", false
	}
	info = strings.TrimSpace(info)
	if ch == '`' && strings.ContainsRune(info, '`') {
		return "", "", false
	}
	lang, _, _ = strings.Cut(info, " ")
	if strings.Trim(lang, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+#._-") != "" {
		return "", "", false
	}
	body := strings.TrimRight(rest, "\n")
	last := strings.LastIndexByte(body, '\n') + 1
	closing := body[last:]
	code = body[:last]
	if c, m, after := fenceMarker(closing); c != ch || m < n || strings.TrimSpace(after) != "" {
		code = rest // unclosed: the block runs to the end, its last line ended
		if !strings.HasSuffix(code, "\n") {
			code += "\n"
		}
	} else if closing[0] != ch {
		return "", "", false
	}
	for l := range strings.SplitSeq(code, "\n") {
		if c, m, after := fenceMarker(l); c == ch && m >= n && strings.TrimSpace(after) == "" {
			return "", "", false // a closing fence inside: not the block it looks like
		}
	}
	return lang, code, true
}
