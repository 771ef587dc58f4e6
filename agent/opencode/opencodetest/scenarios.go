package opencodetest

import (
	"strings"
	"unicode"
)

// Scenario is one behaviour of the fake model, selected by a keyword in
// the newest user message of a request.
type Scenario struct {
	// Name is what Request.Scenario records.
	Name string
	// Keyword selects the scenario: matched case-insensitively as a whole
	// word (or words) anywhere in the prompt. A keyword ending in ":" takes
	// the rest of its line as an argument. "" marks the default.
	Keyword string
	// Does says what the fake streams.
	Does string
}

// Scenarios lists the prompt keywords of the fake model. The first match
// in this order wins; a prompt that matches none plays "plain".
var Scenarios = []Scenario{
	{"model error", "model error", "HTTP 400 with a JSON error body (not retried): session.error APIError, the turn fails"},
	{"retry", "retry", "HTTP 503 on the first FailAttempts attempts of the prompt, then the plain answer; OpenCode reports session.status retry in between"},
	{"disconnect", "disconnect", "half the plain answer, then the connection drops, on the first FailAttempts attempts of the prompt; then the plain answer"},
	{"run", "run:", "a bash tool call with the rest of the line as its command"},
	{"write", "write:", "a write tool call creating the named absolute path holding WriteContent"},
	{"edit", "edit:", "an edit tool call replacing WriteLine by EditedLine in the named absolute path"},
	{"slow", "slow", "an answer of SlowDeltas deltas \"slow0 \", \"slow1 \", ... one per SlowInterval, ending early when the request ends (abort, kill)"},
	{"say", "say:", "the rest of the line as the answer, word by word, no reasoning"},
	{"plain", "", "reasoning_content PlainReasoning in two deltas, then PlainAnswer (markdown) in several deltas"},
}

// Fixed texts of the scenarios, for assertions.
const (
	// PlainReasoning is the reasoning of the plain scenario.
	PlainReasoning = "Thinking about how to answer."
	// PlainAnswer is the plain scenario's answer.
	PlainAnswer = "Hello from the **fake model**.\n\nThis answer is deterministic:\n\n- it streams in several deltas\n- it names `opencodetest`\n"
	// Title answers OpenCode's title requests.
	Title = "Fake session title"
	// FollowupPrefix starts the answer after a tool ran; the tool's result
	// follows in a fenced block.
	FollowupPrefix = "Tool result:"
	// WriteLine is the first line of the file write: creates.
	WriteLine = "hello from the fake model"
	// WriteContent is the whole file write: creates.
	WriteContent = WriteLine + "\nsecond line\n"
	// EditedLine replaces WriteLine in edit:.
	EditedLine = "hello again from the fake model"
	// ErrorMessage is the error message of the model error and retry
	// scenarios' failing answers.
	ErrorMessage = "fake upstream failure"
)

// play is the fake's decision for one request.
type play struct {
	name string
	arg  string // the rest of the line after a "keyword:"
}

// choose picks what to play for r: title requests first, then the answer
// after a tool ran, then the newest prompt's keywords.
func choose(r Request) play {
	if r.IsTitle() {
		return play{name: "title"}
	}
	if n := len(r.Messages); n > 0 && r.Messages[n-1].Role == "tool" {
		return play{name: "followup"}
	}
	prompt := r.LastPrompt()
	for _, sc := range Scenarios {
		if sc.Keyword == "" {
			continue
		}
		if at := findWords(prompt, sc.Keyword); at >= 0 {
			p := play{name: sc.Name}
			if strings.HasSuffix(sc.Keyword, ":") {
				rest := prompt[at+len(sc.Keyword):]
				if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
					rest = rest[:nl]
				}
				p.arg = strings.TrimSpace(rest)
			}
			return p
		}
	}
	return play{name: "plain"}
}

// findWords finds kw in s ignoring ASCII case, where the match does not
// start or end inside a word. It returns the byte index or -1.
func findWords(s, kw string) int {
	ls, lk := asciiLower(s), asciiLower(kw) // same byte offsets as s
	for from := 0; ; {
		i := strings.Index(ls[from:], lk)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(lk)
		if !(i > 0 && isWordByte(ls[i-1])) && !(isWordByte(lk[len(lk)-1]) && end < len(ls) && isWordByte(ls[end])) {
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

func isWordByte(b byte) bool {
	return b < 0x80 && (unicode.IsLetter(rune(b)) || unicode.IsDigit(rune(b)) || b == '_')
}
