package claudetest

import (
	"strings"
	"unicode"
)

// Scenario is one behaviour of the fake model, selected by a keyword in
// the newest prompt of a request.
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
	{"http 500", "http 500", "HTTP 500 (api_error) on every attempt: Claude Code retries HomeOptions.MaxRetries times, announcing each retry (system/api_retry), then the turn fails"},
	{"retry", "retry", "HTTP 500 on the first FailAttempts attempts of the prompt, then the plain answer: Claude Code announces each retry (system/api_retry) and the turn completes"},
	{"model error", "model error", "HTTP 400 invalid_request_error: Claude Code does not retry, the turn fails"},
	{"run", "run:", "text, then a Bash tool_use running the rest of the line (Claude Code asks can_use_tool unless it deems the command read-only); then the command's output (CommandAnswerPrefix)"},
	{"write", "write:", "a Write tool_use writing WriteContent to the path on the rest of the line (Claude Code asks can_use_tool); then EditAnswerPrefix"},
	{"edit", "edit:", "a Read tool_use of the path on the rest of the line, then an Edit replacing EditOld with EditNew in it (Claude Code asks can_use_tool); then EditAnswerPrefix"},
	{"slow", "slow", "thinking, then an answer of SlowDeltas deltas \"slow0 \", \"slow1 \", ... one per SlowInterval, ending early when the request ends (interrupt, kill)"},
	{"say", "say:", "the rest of the line as the answer, word by word, no thinking"},
	{"plain", "", "a thinking block (PlainThinking in two deltas), then PlainAnswer (markdown) in several deltas"},
}

// Fixed texts of the scenarios, for assertions.
const (
	// PlainThinking is the thinking of the plain scenario.
	PlainThinking = "Thinking about how to answer."
	// PlainAnswer is the plain scenario's answer.
	PlainAnswer = "Hello from the **fake model**.\n\nThis answer is deterministic:\n\n- it streams in several deltas\n- it names `claudetest`\n"
	// RunPreamble is the text before a Bash tool_use.
	RunPreamble = "I will run that command."
	// CommandAnswerPrefix starts the answer after a Bash tool ran; the
	// tool's result follows in a fenced block.
	CommandAnswerPrefix = "Command output:"
	// EditAnswerPrefix starts the answer after a Write or Edit ran.
	EditAnswerPrefix = "Edit result:"
	// ToolErrorPrefix starts the answer after a tool failed or was denied;
	// the tool's result follows.
	ToolErrorPrefix = "The tool failed:"
	// WriteContent is what "write:" writes.
	WriteContent = "alpha\nbeta\ngamma\n"
	// EditOld is the text "edit:" replaces with EditNew.
	EditOld = "beta"
	EditNew = "BETA"
	// SideAnswer is the summary a compaction request gets.
	SideAnswer = "The user tested the fake model and got deterministic answers."
	// ErrorMessage is the message of the fake's HTTP errors.
	ErrorMessage = "fake upstream failure"
	// BadRequestMessage is the message of the "model error" scenario.
	BadRequestMessage = "fake model error"
)

// play is the fake's decision for one request.
type play struct {
	name string
	arg  string // the rest of the line after a "keyword:"
	// result and tool are the tool_result a "followup" answers and the
	// tool_use it belongs to.
	result, tool Block
}

// choose picks what to play for r: a compaction summary, the scenario of a
// prompt in the newest user message, else the next step after the tool
// result it carries.
func choose(r Request) play {
	if r.IsCompaction() {
		return play{name: "side"}
	}
	last, ok := r.lastUser()
	if !ok {
		return play{name: "plain"}
	}
	prompt, result := "", Block{}
	hasResult := false
	for _, b := range last.Blocks {
		switch {
		case b.Type == "text" && IsPrompt(b.Text):
			prompt = b.Text
		case b.Type == "tool_result":
			result, hasResult = b, true
		}
	}
	if prompt == "" && hasResult {
		p := play{name: "followup", result: result}
		p.tool, _ = r.toolUse(result.ToolUseID)
		return p
	}
	return scenarioOf(prompt)
}

// scenarioOf matches prompt against Scenarios.
func scenarioOf(prompt string) play {
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
		if !wordByteBefore(ls, i) && !(isWordByte(lk[len(lk)-1]) && end < len(ls) && isWordByte(ls[end])) {
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

func isWordByte(b byte) bool {
	return b < 0x80 && (unicode.IsLetter(rune(b)) || unicode.IsDigit(rune(b)) || b == '_')
}
