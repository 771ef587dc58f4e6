package child

// Cut shortens s to at most n bytes on a UTF-8 boundary, marking the cut
// with "…". Bridges use it to quote what a child wrote (a bad line, the
// end of its stderr, a title made of a prompt) without quoting it whole.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
