package agenttest

import (
	"strings"
	"unicode"
)

// Scenario is one behaviour of a fake model, selected by a keyword in the
// newest prompt of a request.
type Scenario struct {
	// Name is what the fake's Request.Scenario records.
	Name string
	// Keyword selects the scenario: matched case-insensitively as a whole
	// word (or words) anywhere in the prompt. A keyword ending in ":" takes
	// the rest of its line as an argument. "" marks the default.
	Keyword string
	// Does says what the fake streams.
	Does string
}

// MatchScenario finds the first of scenarios whose keyword is in prompt
// (see Scenario.Keyword): its name, and for a "keyword:" the rest of the
// keyword's line, trimmed. ok is false when none matches.
func MatchScenario(prompt string, scenarios []Scenario) (name, arg string, ok bool) {
	for _, sc := range scenarios {
		if sc.Keyword == "" {
			continue
		}
		if at := FindWords(prompt, sc.Keyword); at >= 0 {
			if strings.HasSuffix(sc.Keyword, ":") {
				rest := prompt[at+len(sc.Keyword):]
				if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
					rest = rest[:nl]
				}
				arg = strings.TrimSpace(rest)
			}
			return sc.Name, arg, true
		}
	}
	return "", "", false
}

// FindWords finds kw in s ignoring ASCII case, where the match does not
// start or end inside a word. It returns the byte index or -1.
func FindWords(s, kw string) int {
	ls, lk := asciiLower(s), asciiLower(kw) // same byte offsets as s
	for from := 0; ; {
		i := strings.Index(ls[from:], lk)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(lk)
		if !wordByteBefore(ls, i) && !runsOn(ls, lk, end) {
			return i
		}
		from = i + 1
	}
}

// asciiLower lowers A-Z only, so byte offsets stay those of s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func wordByteBefore(s string, i int) bool { return i > 0 && isWordByte(s[i-1]) }

// runsOn reports whether the match of kw ending at end in s runs on into a
// longer word.
func runsOn(s, kw string, end int) bool {
	return isWordByte(kw[len(kw)-1]) && end < len(s) && isWordByte(s[end])
}

func isWordByte(b byte) bool {
	return b < 0x80 && (unicode.IsLetter(rune(b)) || unicode.IsDigit(rune(b)) || b == '_')
}
