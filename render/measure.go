package render

// ProseMeasure is the widest a paragraph of prose wraps at: on a very wide
// terminal lines of text stay readable. Code blocks and tables are not
// wrapped to it; they may use the whole width.
const ProseMeasure = 100

// proseWidth is the wrap width for prose in a column width cells wide.
func proseWidth(width int) int { return min(width, ProseMeasure) }
