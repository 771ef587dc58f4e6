package themes

import (
	"strings"

	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
	"github.com/alecthomas/chroma/v2"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
)

// Names of the code-highlighting styles registered with chroma for the
// dark and light themes.
const (
	chromaDark  = "lookout-dark"
	chromaLight = "lookout-light"
)

// init registers one chroma style per theme under its own name. Glamour,
// given an inline Chroma configuration, registers it under one fixed name
// the first time it highlights code and reuses that style for every later
// configuration, so in a process that renders both themes the second one
// would get the first one's code colours. Registering here, before any
// rendering can run, is also what keeps the registry (a plain map) free
// of concurrent writes.
func init() {
	chromastyles.Register(chromaStyle(chromaDark, styles.DarkStyleConfig.CodeBlock.Chroma))
	chromastyles.Register(chromaStyle(chromaLight, styles.LightStyleConfig.CodeBlock.Chroma))
}

// darkMarkdown and lightMarkdown start from glamour's own dark and light
// configurations (copied by value, so the package-level originals are never
// touched) and point code blocks at the chroma style registered for them.
func darkMarkdown() ansi.StyleConfig  { return withChroma(styles.DarkStyleConfig, chromaDark) }
func lightMarkdown() ansi.StyleConfig { return withChroma(styles.LightStyleConfig, chromaLight) }

func withChroma(c ansi.StyleConfig, name string) ansi.StyleConfig {
	c.CodeBlock.Chroma = nil
	c.CodeBlock.Theme = name
	return c
}

// embedMarkdown adapts a glamour configuration for rendering inside a
// transcript row: the row supplies its own gutter, so the document gets no
// margin and no blank line before or after it.
func embedMarkdown(c ansi.StyleConfig) ansi.StyleConfig {
	zero := uint(0)
	c.Document.Margin = &zero
	c.Document.BlockPrefix = ""
	c.Document.BlockSuffix = ""
	return readable(c)
}

// readable makes the markdown read like prose, as glow shows it: inline
// code is coloured only over its own text (no padding spaces that break
// the sentence, as in "even  from()"), and headings below the first level
// are told apart by their style instead of literal "##" markers.
func readable(c ansi.StyleConfig) ansi.StyleConfig {
	c.Code.Prefix, c.Code.Suffix = "", ""
	c.Code.BlockPrefix, c.Code.BlockSuffix = "", ""
	on := true
	for i, h := range []*ansi.StyleBlock{&c.H2, &c.H3, &c.H4, &c.H5, &c.H6} {
		h.Prefix = ""
		h.Bold = &on
		switch i {
		case 0:
			h.Underline = &on
		case 1:
		default:
			h.Italic = &on
		}
	}
	return c
}

// chromaStyle builds a chroma style from glamour's per-token settings.
func chromaStyle(name string, c *ansi.Chroma) *chroma.Style {
	if c == nil {
		return chroma.MustNewStyle(name, chroma.StyleEntries{})
	}
	tokens := map[chroma.TokenType]ansi.StylePrimitive{
		chroma.Text: c.Text, chroma.Error: c.Error, chroma.Comment: c.Comment,
		chroma.CommentPreproc: c.CommentPreproc, chroma.Keyword: c.Keyword,
		chroma.KeywordReserved: c.KeywordReserved, chroma.KeywordNamespace: c.KeywordNamespace,
		chroma.KeywordType: c.KeywordType, chroma.Operator: c.Operator, chroma.Punctuation: c.Punctuation,
		chroma.Name: c.Name, chroma.NameBuiltin: c.NameBuiltin, chroma.NameTag: c.NameTag,
		chroma.NameAttribute: c.NameAttribute, chroma.NameClass: c.NameClass,
		chroma.NameConstant: c.NameConstant, chroma.NameDecorator: c.NameDecorator,
		chroma.NameException: c.NameException, chroma.NameFunction: c.NameFunction,
		chroma.NameOther: c.NameOther, chroma.Literal: c.Literal, chroma.LiteralNumber: c.LiteralNumber,
		chroma.LiteralDate: c.LiteralDate, chroma.LiteralString: c.LiteralString,
		chroma.LiteralStringEscape: c.LiteralStringEscape, chroma.GenericDeleted: c.GenericDeleted,
		chroma.GenericEmph: c.GenericEmph, chroma.GenericInserted: c.GenericInserted,
		chroma.GenericStrong: c.GenericStrong, chroma.GenericSubheading: c.GenericSubheading,
		chroma.Background: c.Background,
	}
	entries := chroma.StyleEntries{}
	for tt, p := range tokens {
		if e := chromaEntry(p); e != "" {
			entries[tt] = e
		}
	}
	return chroma.MustNewStyle(name, entries)
}

// chromaEntry writes one token's settings in chroma's style syntax
// ("#rrggbb bg:#rrggbb bold italic underline").
func chromaEntry(p ansi.StylePrimitive) string {
	var parts []string
	if p.Color != nil && *p.Color != "" {
		parts = append(parts, *p.Color)
	}
	if p.BackgroundColor != nil && *p.BackgroundColor != "" {
		parts = append(parts, "bg:"+*p.BackgroundColor)
	}
	for _, f := range []struct {
		on   *bool
		word string
	}{{p.Bold, "bold"}, {p.Italic, "italic"}, {p.Underline, "underline"}} {
		if f.on != nil && *f.on {
			parts = append(parts, f.word)
		}
	}
	return strings.Join(parts, " ")
}
