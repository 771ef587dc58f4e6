package termtext

// isBidiControl reports whether r is a Unicode bidirectional formatting
// character: the embeddings and overrides (U+202A-U+202E), the isolates
// (U+2066-U+2069) and the marks (LRM U+200E, RLM U+200F, ALM U+061C).
// Each can make text display in another order than it is stored (and
// runs), as "ls \u202egnp.exe" shows as "ls exe.png". Right-to-left
// letters (Hebrew, Arabic) are not among them: a terminal that orders
// them does so from the letters alone.
func isBidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 ||
		r == 0x200e || r == 0x200f || r == 0x061c
}
