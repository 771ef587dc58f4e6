package themes

import (
	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
)

// darkMarkdown and lightMarkdown start from glamour's own dark and light
// configurations (copied by value, so the package-level originals are never
// touched).
func darkMarkdown() ansi.StyleConfig  { return styles.DarkStyleConfig }
func lightMarkdown() ansi.StyleConfig { return styles.LightStyleConfig }

// embedMarkdown adapts a glamour configuration for rendering inside a
// transcript row: the row supplies its own gutter, so the document gets no
// margin and no blank line before or after it.
func embedMarkdown(c ansi.StyleConfig) ansi.StyleConfig {
	zero := uint(0)
	c.Document.Margin = &zero
	c.Document.BlockPrefix = ""
	c.Document.BlockSuffix = ""
	return c
}
