package render

import (
	"io"
	"math"
	"strconv"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters"
)

// codeFormatter is the chroma formatter glamour highlights code blocks
// with (registered as codeFormatterName, like themes registers its chroma
// styles). It writes what chroma's "terminal256" writes, with two
// differences that matter to a transcript:
//
//   - the escape sequence of every token type is worked out once per
//     style, not on every code block (chroma maps each of the style's
//     colours to the palette again for each block: a third of the cost of
//     highlighting a short block);
//   - a colour exactly between two palette colours always maps to the
//     lower index (chroma picks by map order, so a comment could come out
//     in colour 241 or 242 from one render to the next).
//
// It is safe for concurrent use.
type codeFormatter struct {
	themes *memo[*chroma.Style, *codeTheme]
}

// codeTheme is one chroma style's escape sequences.
type codeTheme struct {
	escapes map[chroma.TokenType]string
	// resumes holds the escape sequences glamour's writers restore as
	// they are on the next line of a token that spans lines.
	resumes map[string]bool
}

const codeFormatterName = "lookout256"

// highlighter is the formatter registered as codeFormatterName.
var highlighter = &codeFormatter{themes: newMemo[*chroma.Style, *codeTheme](maxCodeThemes)}

func init() {
	formatters.Register(codeFormatterName, highlighter)
}

// maxCodeThemes bounds the styles whose escape tables are kept.
const maxCodeThemes = 16

func (f *codeFormatter) theme(style *chroma.Style) *codeTheme {
	return f.themes.get(style, newCodeTheme)
}

// newCodeTheme works out style's escape table.
func newCodeTheme(style *chroma.Style) *codeTheme {
	b := style.Builder()
	bg := b.Get(chroma.Background)
	bg.Background = 0
	bg.NoInherit = true
	b.AddEntry(chroma.Background, bg)
	cleared, err := b.Build()
	if err != nil {
		cleared = style
	}
	t := &codeTheme{escapes: map[chroma.TokenType]string{}, resumes: map[string]bool{"": true}}
	for _, tt := range cleared.Types() {
		esc := entryEscape(cleared.Get(tt))
		t.escapes[tt] = esc
		if _, ok := t.resumes[esc]; !ok {
			t.resumes[esc] = resumesAsIs(esc)
		}
	}
	return t
}

// escape is the escape sequence of a token type: its own, or its
// subcategory's, category's, text's or background's, the first there is.
func (t *codeTheme) escape(tt chroma.TokenType) string {
	for _, k := range []chroma.TokenType{tt, tt.SubCategory(), tt.Category(), chroma.Text} {
		if clr, ok := t.escapes[k]; ok {
			return clr
		}
	}
	return t.escapes[chroma.Background]
}

// Format writes the tokens with their styles, each reset after it.
func (f *codeFormatter) Format(w io.Writer, style *chroma.Style, it chroma.Iterator) error {
	theme := f.theme(style)
	for token := it(); token != chroma.EOF; token = it() {
		clr := theme.escape(token.Type)
		if clr != "" {
			if _, err := io.WriteString(w, clr); err != nil {
				return err
			}
		}
		if _, err := io.WriteString(w, token.Value); err != nil {
			return err
		}
		if clr != "" {
			if _, err := io.WriteString(w, "\x1b[0m"); err != nil {
				return err
			}
		}
	}
	return nil
}

// entryEscape is chroma's escape sequence for one style entry on a
// 256-colour terminal.
func entryEscape(e chroma.StyleEntry) string {
	out := ""
	if e.Bold == chroma.Yes {
		out += "\x1b[1m"
	}
	if e.Underline == chroma.Yes {
		out += "\x1b[4m"
	}
	if e.Italic == chroma.Yes {
		out += "\x1b[3m"
	}
	if e.Colour.IsSet() {
		out += "\x1b[38;5;" + strconv.Itoa(closest256(e.Colour)) + "m"
	}
	if e.Background.IsSet() {
		out += "\x1b[48;5;" + strconv.Itoa(closest256(e.Background)) + "m"
	}
	return out
}

// palette256 is chroma's 256-colour table: index -> colour. Colours listed
// twice (the system colours repeated in the cube) are offered at their
// higher index, as chroma's table keeps them.
var palette256 = func() [256]chroma.Colour {
	var p [256]chroma.Colour
	system := []string{"#000000", "#800000", "#008000", "#808000", "#000080", "#800080", "#008080", "#c0c0c0",
		"#808080", "#ff0000", "#00ff00", "#ffff00", "#0000ff", "#ff00ff", "#00ffff", "#ffffff"}
	for i, s := range system {
		p[i] = chroma.MustParseColour(s)
	}
	levels := []int{0, 0x5f, 0x87, 0xaf, 0xd7, 0xff}
	for i := 16; i < 232; i++ {
		n := i - 16
		p[i] = chroma.NewColour(uint8(levels[n/36]), uint8(levels[n/6%6]), uint8(levels[n%6]))
	}
	for i := 232; i < 256; i++ {
		v := uint8(8 + 10*(i-232))
		p[i] = chroma.NewColour(v, v, v)
	}
	return p
}()

// closest256 is the palette index nearest to c (chroma's distance); ties
// go to the lower index, and a colour listed twice counts at its higher
// index.
func closest256(c chroma.Colour) int {
	best, bestD := 0, math.MaxFloat64
	for i, pc := range palette256 {
		if d := pc.Distance(c); d < bestD && !listedLater(i) {
			best, bestD = i, d
		}
	}
	return best
}

// listedLater reports whether palette index i repeats later in the table
// (a system colour the cube lists again).
func listedLater(i int) bool {
	if i >= 16 {
		return false
	}
	for j := 16; j < 256; j++ {
		if palette256[j] == palette256[i] {
			return true
		}
	}
	return false
}
