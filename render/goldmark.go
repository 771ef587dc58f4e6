package render

import (
	"bufio"
	"bytes"

	"charm.land/glamour/v2/ansi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// mdRenderer renders markdown as glamour.TermRenderer does: goldmark
// with the extensions and parser options glamour sets, and glamour's ANSI
// node renderer in place of goldmark's HTML one. It writes every render
// into one kept buffer, where glamour's Render makes a 4 KB writer and
// grows a new buffer each call: an eighth of the bytes a streamed answer
// used to allocate. TestMDRendererIsGlamours holds the two equal.
type mdRenderer struct {
	md  goldmark.Markdown
	out bytes.Buffer
	w   *bufio.Writer
}

// keptRenderBuffer is the largest output buffer an mdRenderer keeps
// between renders; a larger one (a long message rendered whole) is let go.
const keptRenderBuffer = 64 << 10

// newMDRenderer is glamour.NewTermRenderer with these styles, this wrap
// width (0: no wrap and no padding) and the code formatter.
func newMDRenderer(styles ansi.StyleConfig, wordWrap int) *mdRenderer {
	md := goldmark.New(
		goldmark.WithExtensions(extension.GFM, extension.DefinitionList),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	)
	ar := ansi.NewRenderer(ansi.Options{WordWrap: wordWrap, Styles: styles, ChromaFormatter: codeFormatterName})
	md.SetRenderer(renderer.NewRenderer(renderer.WithNodeRenderers(util.Prioritized(ar, 1000))))
	m := &mdRenderer{md: md}
	m.w = bufio.NewWriter(&m.out)
	return m
}

// Render renders src.
func (m *mdRenderer) Render(src string) (string, error) {
	m.out.Reset()
	m.w.Reset(&m.out)
	err := m.md.Convert([]byte(src), m.w)
	out := m.out.String()
	if m.out.Cap() > keptRenderBuffer {
		m.out = bytes.Buffer{}
	}
	return out, err
}
