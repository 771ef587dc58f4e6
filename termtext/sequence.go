package termtext

// Escape sequences (ECMA-48) as terminals parse them. A sequence starts
// with ESC or with a C1 control written as UTF-8 (U+0080-U+009F, two bytes
// 0xC2 0x80-0x9F); the C1 introducers CSI (U+009B), OSC (U+009D), DCS
// (U+0090), SOS (U+0098), PM (U+009E) and APC (U+009F) start the same
// sequences as their 7-bit forms ESC [, ESC ], ESC P, ESC X, ESC ^ and
// ESC _.

const esc = 0x1b

// isC1At reports whether s[i:] starts with a C1 control encoded as UTF-8.
func isC1At(s string, i int) bool {
	return s[i] == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] < 0xa0
}

// sequenceEnd returns the index just past the escape sequence that starts
// at s[i], which is ESC or the first byte of a C1 control. A lone ESC (at
// the end, or before a byte that cannot continue a sequence) and a C1
// control that introduces nothing end right after themselves. A sequence
// cut short by a byte that cannot belong to it ends before that byte; a
// control string with no terminator runs to the end of s.
func sequenceEnd(s string, i int) int {
	if s[i] != esc {
		// A C1 control: 0xC2 then the control's low byte.
		switch s[i+1] {
		case 0x9b:
			return csiEnd(s, i+2)
		case 0x9d, 0x90, 0x98, 0x9e, 0x9f:
			return stringEnd(s, i+2)
		}
		return i + 2
	}
	j := i + 1
	if j >= len(s) {
		return j
	}
	switch c := s[j]; {
	case c == '[':
		return csiEnd(s, j+1)
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		return stringEnd(s, j+1)
	case c >= 0x20 && c <= 0x2f:
		// nF escape: intermediates, then a final byte.
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
			j++
		}
		if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
			j++
		}
		return j
	case c >= 0x30 && c <= 0x7e:
		// Fp, Fe and Fs escapes: ESC and one byte (ESC 7, ESC c, ESC M ...).
		return j + 1
	}
	return j
}

// csiEnd returns the end of a control sequence whose parameters start at
// s[j]: parameter bytes, intermediate bytes, one final byte.
func csiEnd(s string, j int) int {
	for j < len(s) && s[j] >= 0x30 && s[j] <= 0x3f {
		j++
	}
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
		j++
	}
	if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
		j++
	}
	return j
}

// stringEnd returns the end of a control string (OSC, DCS, SOS, PM, APC)
// whose body starts at s[j]. It ends with BEL, ST (ESC \ or U+009C), or
// CAN or SUB (which cancel it); an ESC that does not start ST ends it and
// starts a sequence of its own. Without any of these it runs to the end.
func stringEnd(s string, j int) int {
	for ; j < len(s); j++ {
		switch s[j] {
		case 0x07, 0x18, 0x1a:
			return j + 1
		case esc:
			if j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
			return j
		case 0xc2:
			if j+1 < len(s) && s[j+1] == 0x9c {
				return j + 2
			}
		}
	}
	return j
}
