package termtext

import "unicode/utf8"

// JSON returns JSON text made safe to print without changing what it
// means. Inside strings, the control characters JSON allows unescaped (C1,
// U+0080-U+009F, and DEL), the bidi controls (isBidiControl) and any raw
// C0 control are written as \u escapes, and each byte of invalid UTF-8 as
// \ufffd (what a decoder reads it as). Outside strings, TAB, LF and CR
// (JSON whitespace) stay; any other control is escaped too, which keeps
// invalid JSON invalid but harmless. b is returned as it is when it needs
// none of this.
func JSON(b []byte) []byte {
	if jsonClean(b) {
		return b
	}
	const hex = "0123456789abcdef"
	out := make([]byte, 0, len(b)+16)
	inString := false
	for i := 0; i < len(b); {
		c := b[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(b[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				out = append(out, `\ufffd`...)
			case r < 0xa0 || isBidiControl(r):
				out = append(out, '\\', 'u', hex[r>>12], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
			default:
				out = append(out, b[i:i+size]...)
			}
			i += size
			continue
		}
		switch {
		case c < 0x20 && (inString || c != '\t' && c != '\n' && c != '\r') || c == 0x7f:
			out = append(out, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		case c == '"':
			inString = !inString
			out = append(out, c)
		case c == '\\' && inString && i+1 < len(b) && b[i+1] >= 0x20 && b[i+1] < 0x7f:
			// An escape: its second byte cannot end the string.
			out = append(out, c, b[i+1])
			i++
		default:
			out = append(out, c)
		}
		i++
	}
	return out
}

// jsonClean reports that b holds no control character (C0, DEL, C1), no
// bidi control and no invalid UTF-8, so JSON returns it unchanged. (JSON
// whitespace other than spaces takes the slow path, which tells it from a
// raw control inside a string.)
func jsonClean(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 || r < 0xa0 || isBidiControl(r) {
			return false
		}
		i += size
	}
	return true
}
