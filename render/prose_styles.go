package render

import "strings"

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
// span, list mark and heading.
func (r *Renderer) inlineStyles() *inlineStyles {
	if r.inline == nil {
		st := &inlineStyles{}
		r.inline = st // the list checks below lay lists out with it
		st.ok = r.learnSpans(st)
		if st.ok {
			r.learnLists(st)
			r.learnHeadings(st)
		}
	}
	return r.inline
}

// learnSpans fills in each kind's opening sequence from the unwrapped
// renderer's line for "a X c", X a span of that kind, and reports whether
// the spans put together give glamour's own line for a paragraph of every
// kind, soft break included.
func (r *Renderer) learnSpans(st *inlineStyles) bool {
	probes := [inlineKinds]string{inlineText: "b", inlineStrong: "**b**", inlineEmph: "*b*", inlineCode: "`b`"}
	for kind, probe := range probes {
		line, ok := r.probeLine("a " + probe + " c")
		if !ok {
			return false
		}
		text := st.open[inlineText]
		if kind == int(inlineText) {
			// The whole line is one run of text: "\x1b[...ma b c\x1b[m".
			open, rest, found := strings.Cut(line, "a b c")
			if !found || rest != "\x1b[m" || leadingSGR(open) != len(open) {
				return false
			}
			st.open[kind] = open
			continue
		}
		if line == text+"a b c\x1b[m" {
			st.open[kind] = text // merged: the kind's style is the text's
			continue
		}
		// "a " in text, b in the kind's style, " c" in text.
		inner, found := strings.CutPrefix(line, text+"a \x1b[m")
		inner, ok = strings.CutSuffix(inner, "\x1b[m"+text+" c\x1b[m")
		open, isB := strings.CutSuffix(inner, "b")
		if !found || !ok || !isB || open == "" || leadingSGR(open) != len(open) {
			return false
		}
		st.open[kind] = open
	}
	const check = "one **two** three\n*four* `five` six"
	spans, _ := plainSpans(check)
	want, ok := r.probeLine(check)
	return ok && st.line(spans) == want
}

// learnLists learns a bullet item's mark and what follows an ordered
// item's number (an item is its mark in text style, then its spans), each
// checked against a list glamour lays out.
func (r *Renderer) learnLists(st *inlineStyles) {
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
}

// learnHeadings learns what comes before and after a heading's text at
// each level, checked against a heading glamour lays out.
func (r *Renderer) learnHeadings(st *inlineStyles) {
	for level := 1; level <= 6; level++ {
		hashes := strings.Repeat("#", level)
		line, ok := r.probeLine(hashes + " Q")
		pre, post, found := strings.Cut(line, "Q")
		if !ok || !found || strings.Contains(post, "Q") {
			continue
		}
		const check = "One two: three (4)"
		if want, ok := r.probeLine(hashes + " " + check); ok && want == pre+check+post {
			st.heading[level] = [2]string{pre, post}
		}
	}
}

// listAsGlamour reports whether plainList gives glamour's lines for src.
func (r *Renderer) listAsGlamour(src string) bool {
	lines, ok := r.plainList(src)
	return ok && strings.Join(r.unwrappedLines(src), "\n") == strings.Join(lines, "\n")
}

// probeLine renders src through the unwrapped renderer and returns its one
// shown line, tidied and merged.
func (r *Renderer) probeLine(src string) (string, bool) {
	lines := r.unwrappedLines(src)
	if len(lines) != 1 {
		return "", false
	}
	return lines[0], true
}
