package codextest

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
	{"http 500", "http 500", "HTTP 500 with a JSON error body, on every attempt: the turn fails"},
	{"retry", "retry", "HTTP 500 on the first FailAttempts attempts of the turn, then the plain answer; with HomeOptions.StreamRetries >= FailAttempts Codex emits error{willRetry:true} notices and the turn completes"},
	{"disconnect", "disconnect", "reasoning and half the plain answer, then the stream ends without response.completed on the first FailAttempts attempts; then the plain answer"},
	{"model error", "model error", "response.created then response.failed {error:{code:\"server_error\"}}"},
	{"run sandboxed", "run sandboxed:", "exec_command with the rest of the line as cmd, no escalation: runs in the sandbox without approval (workspace-write)"},
	{"run", "run:", "exec_command with the rest of the line as cmd, sandbox_permissions require_escalated and a justification: Codex asks item/commandExecution/requestApproval"},
	{"run command", "run command", "as run: with the command " + DefaultCommand},
	{"patch update", "patch update:", "exec_command running apply_patch that replaces the line PatchLine of the named file (made by patch:) with PatchUpdatedLine"},
	{"patch", "patch:", "exec_command running apply_patch that adds the named file holding PatchLine (Codex shows a fileChange item; read-only sandbox asks item/fileChange/requestApproval)"},
	{"patch file", "patch", "as patch: with the file " + DefaultPatchFile},
	{"slow", "slow", "reasoning, then an answer of SlowDeltas deltas \"slow0 \", \"slow1 \", ... one per SlowInterval, ending early when the request ends (interrupt, kill)"},
	{"long", "long", "LongText in LongChunk-character deltas, as fast as possible, no reasoning"},
	{"say", "say:", "the rest of the line as the answer, word by word, no reasoning"},
	{"many", "many:", "N answer messages \"message i of N\" in one response (N the rest of the line, at most MaxMany): a long history in one turn"},
	{"plain", "", "a reasoning item (summary PlainReasoning in two deltas), then PlainAnswer (markdown) in several deltas"},
}

// Fixed texts of the scenarios, for assertions.
const (
	// MaxMany bounds the messages of the "many" scenario.
	MaxMany = 5000
	// PlainReasoning is the reasoning summary of the plain scenario.
	PlainReasoning = "Thinking about how to answer."
	// PlainAnswer is the plain scenario's answer.
	PlainAnswer = "Hello from the **fake model**.\n\nThis answer is deterministic:\n\n- it streams in several deltas\n- it names `codextest`\n"
	// DefaultCommand is what "run command" runs.
	DefaultCommand = "echo hello from codextest"
	// CommandJustification is the justification of escalated commands
	// (Codex passes it as the approval request's reason).
	CommandJustification = "The user asked to run this command."
	// CommandAnswerPrefix starts the answer after a command ran; the
	// command's output follows in a fenced block.
	CommandAnswerPrefix = "Command output:"
	// PatchAnswerPrefix starts the answer after apply_patch ran; its
	// output follows in a fenced block.
	PatchAnswerPrefix = "Patch result:"
	// DefaultPatchFile is the file "patch" adds.
	DefaultPatchFile = "hello.txt"
	// PatchLine is the one line of a file "patch:" adds.
	PatchLine = "hello from the fake model"
	// PatchUpdatedLine replaces PatchLine in "patch update:".
	PatchUpdatedLine = "hello again from the fake model"
	// SideAnswer answers requests that are not a turn's model call
	// (compaction summaries and any other side request).
	SideAnswer = "Summary: the user tested the fake model and got deterministic answers."
)

// play is the fake's decision for one request.
type play struct {
	name string
	arg  string // the rest of the line after a "keyword:"
}

// choose picks what to play for r: side requests first, then the answer
// after a tool ran, then the newest prompt's keywords.
func choose(r Request) play {
	prompt := r.LastPrompt()
	if (r.Kind != "" && r.Kind != "turn") || strings.Contains(prompt, "CONTEXT CHECKPOINT COMPACTION") {
		return play{name: "side"}
	}
	if n := len(r.Input); n > 0 {
		if t := r.Input[n-1].Type; t == "function_call_output" || t == "custom_tool_call_output" {
			return play{name: "followup"}
		}
	}
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
