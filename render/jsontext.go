package render

import (
	"encoding/json"
	"strings"
)

// readableJSON undoes encoding/json's HTML escaping in a JSON text, so
// that a tool input reads `a > b && c` rather than `a \u003e b \u0026\u0026
// c`: inside strings, \u003c, \u003e and \u0026 become <, > and &, which
// JSON allows as they are. Everything else stays byte for byte (an
// escaped backslash, other escapes, key order). A text that is not JSON
// is returned as it is.
func readableJSON(s string) string {
	if !strings.Contains(s, `\u00`) || !json.Valid([]byte(s)) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	inString := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			inString = !inString
		case c == '\\' && inString && i+1 < len(s):
			if r, ok := htmlEscape(s[i+1:]); ok {
				b.WriteByte(r)
				i += 5
				continue
			}
			b.WriteByte(c) // the escape and the character it escapes
			i++
			c = s[i]
		}
		b.WriteByte(c)
	}
	return b.String()
}

// htmlEscape reads the rest of an escape after its backslash: one of the
// three encoding/json writes for HTML safety, or not.
func htmlEscape(s string) (byte, bool) {
	if len(s) < 5 {
		return 0, false
	}
	switch strings.ToLower(s[:5]) {
	case "u003c":
		return '<', true
	case "u003e":
		return '>', true
	case "u0026":
		return '&', true
	}
	return 0, false
}
