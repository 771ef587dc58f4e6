package model

// validJSON reports whether d is one JSON value, exactly as json.Valid does,
// in a single pass that costs about half of json.Valid's: every frame
// a client reads is checked, and most of a stream's bytes are the text
// inside delta strings, which this walks with a tight loop instead of
// json.Valid's per-byte state function.
func validJSON(d []byte) bool {
	i, ok := validValue(d, skipWS(d, 0), 0)
	return ok && skipWS(d, i) == len(d)
}

// maxJSONDepth is how deeply arrays and objects may nest, as for
// json.Valid (encoding/json refuses deeper input).
const maxJSONDepth = 10000

// validValue checks the value starting at d[i] (after white space) and
// returns the index just past it.
func validValue(d []byte, i, depth int) (int, bool) {
	if i >= len(d) {
		return 0, false
	}
	switch c := d[i]; {
	case c == '"':
		return validString(d, i)
	case c == '{':
		return validObject(d, i, depth+1)
	case c == '[':
		return validArray(d, i, depth+1)
	case c == '-' || c >= '0' && c <= '9':
		return validNumber(d, i)
	case c == 't':
		return validLiteral(d, i, "true")
	case c == 'f':
		return validLiteral(d, i, "false")
	case c == 'n':
		return validLiteral(d, i, "null")
	}
	return 0, false
}

func validObject(d []byte, i, depth int) (int, bool) {
	if depth > maxJSONDepth {
		return 0, false
	}
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(d) || d[i] != '"' {
			return 0, false
		}
		var ok bool
		if i, ok = validString(d, i); !ok {
			return 0, false
		}
		i = skipWS(d, i)
		if i >= len(d) || d[i] != ':' {
			return 0, false
		}
		if i, ok = validValue(d, skipWS(d, i+1), depth); !ok {
			return 0, false
		}
		var more bool
		if i, more, ok = nextElement(d, i, '}'); !ok || !more {
			return i, ok
		}
	}
}

func validArray(d []byte, i, depth int) (int, bool) {
	if depth > maxJSONDepth {
		return 0, false
	}
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == ']' {
		return i + 1, true
	}
	for {
		var ok, more bool
		if i, ok = validValue(d, i, depth); !ok {
			return 0, false
		}
		if i, more, ok = nextElement(d, i, ']'); !ok || !more {
			return i, ok
		}
	}
}

// nextElement reads what follows an element of an object or array: a
// comma (more: the next element starts at i) or the closing bracket (i is
// just past it).
func nextElement(d []byte, i int, closing byte) (next int, more, ok bool) {
	i = skipWS(d, i)
	switch {
	case i >= len(d):
		return 0, false, false
	case d[i] == ',':
		return skipWS(d, i+1), true, true
	case d[i] == closing:
		return i + 1, false, true
	}
	return 0, false, false
}

// validString checks the string starting at d[i] (a quote): no control
// characters, and only the escapes JSON defines. Like json.Valid it
// accepts bytes that are not UTF-8.
func validString(d []byte, i int) (int, bool) {
	for i++; i < len(d); i++ {
		switch c := d[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return 0, false
		case c == '\\':
			i++
			if i >= len(d) {
				return 0, false
			}
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d) || !isHex(d[i+1]) || !isHex(d[i+2]) || !isHex(d[i+3]) || !isHex(d[i+4]) {
					return 0, false
				}
				i += 4
			default:
				return 0, false
			}
		}
	}
	return 0, false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// validNumber checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func validNumber(d []byte, i int) (int, bool) {
	if d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		i = digits(d, i)
	default:
		return 0, false
	}
	if i < len(d) && d[i] == '.' {
		j := digits(d, i+1)
		if j == i+1 {
			return 0, false
		}
		i = j
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := digits(d, i)
		if j == i {
			return 0, false
		}
		i = j
	}
	return i, true
}

func digits(d []byte, i int) int {
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	return i
}

func validLiteral(d []byte, i int, lit string) (int, bool) {
	if len(d)-i < len(lit) || string(d[i:i+len(lit)]) != lit {
		return 0, false
	}
	return i + len(lit), true
}
