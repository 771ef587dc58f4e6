package codextest

import (
	"strings"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// Scenario is one behaviour of the fake model, selected by a keyword in
// the newest prompt of a request.
type Scenario = agenttest.Scenario

// Scenarios lists the prompt keywords of the fake model. The first match
// in this order wins; a prompt that matches none plays "plain".
var Scenarios = []Scenario{
	{Name: "http 500", Keyword: "http 500", Does: "HTTP 500 with a JSON error body, on every attempt: the turn fails"},
	{Name: "retry", Keyword: "retry", Does: "HTTP 500 on the first FailAttempts attempts of the turn, then the plain answer; with HomeOptions.StreamRetries >= FailAttempts Codex emits error{willRetry:true} notices and the turn completes"},
	{Name: "disconnect", Keyword: "disconnect", Does: "reasoning and half the plain answer, then the stream ends without response.completed on the first FailAttempts attempts; then the plain answer"},
	{Name: "model error", Keyword: "model error", Does: "response.created then response.failed {error:{code:\"server_error\"}}"},
	{Name: "run sandboxed", Keyword: "run sandboxed:", Does: "exec_command with the rest of the line as cmd, no escalation: runs in the sandbox without approval (workspace-write)"},
	{Name: "run", Keyword: "run:", Does: "exec_command with the rest of the line as cmd, sandbox_permissions require_escalated and a justification: Codex asks item/commandExecution/requestApproval"},
	{Name: "run command", Keyword: "run command", Does: "as run: with the command " + DefaultCommand},
	{Name: "patch update", Keyword: "patch update:", Does: "exec_command running apply_patch that replaces the line PatchLine of the named file (made by patch:) with PatchUpdatedLine"},
	{Name: "patch", Keyword: "patch:", Does: "exec_command running apply_patch that adds the named file holding PatchLine (Codex shows a fileChange item; read-only sandbox asks item/fileChange/requestApproval)"},
	{Name: "patch file", Keyword: "patch", Does: "as patch: with the file " + DefaultPatchFile},
	{Name: "ask", Keyword: "ask user", Does: "a request_user_input call asking AskQuestion (id AskQuestionID) with AskOptions (Codex asks item/tool/requestUserInput); after the answer, AskAnswerPrefix and the tool's output"},
	{Name: "plan", Keyword: "plan the work", Does: "an update_plan call of PlanSteps[0] with PlanExplanation; after its output, one of PlanSteps[1] (the plan revised); then PlanAnswer"},
	{Name: "slow", Keyword: "slow", Does: "reasoning, then an answer of SlowDeltas deltas \"slow0 \", \"slow1 \", ... one per SlowInterval, ending early when the request ends (interrupt, kill)"},
	{Name: "long", Keyword: "long", Does: "LongText in LongChunk-character deltas, LongRate a second (default as fast as possible), no reasoning"},
	{Name: "say", Keyword: "say:", Does: "the rest of the line as the answer, word by word, no reasoning"},
	{Name: "many", Keyword: "many:", Does: "N answer messages \"message i of N\" in one response (N the rest of the line, at most MaxMany): a long history in one turn"},
	{Name: "plain", Keyword: "", Does: "a reasoning item (summary PlainReasoning in two deltas), then PlainAnswer (markdown) in several deltas"},
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
	// AskQuestionID, AskQuestion and AskHeader are the question of "ask
	// user".
	AskQuestionID = "database"
	AskQuestion   = "Which database should the service use?"
	AskHeader     = "Database"
	// AskAnswerPrefix starts the answer after request_user_input returned;
	// its output follows in a fenced block.
	AskAnswerPrefix = "The user answered:"
	// SideAnswer answers requests that are not a turn's model call
	// (compaction summaries and any other side request).
	SideAnswer = "Summary: the user tested the fake model and got deterministic answers."
	// Title is the title the fake gives a thread when Codex's own TUI
	// asks (a "thread_title" request, answered as the JSON it expects).
	Title = "Fake session title"
)

// PlanStep is one step of an update_plan call, as Codex takes it.
type PlanStep struct {
	Step   string `json:"step"`
	Status string `json:"status"` // pending, in_progress, completed
}

// PlanSteps are the two plans "plan the work" gives: the second completes
// the first step, starts the second and adds a step.
var PlanSteps = [][]PlanStep{
	{{Step: "Read the code", Status: "in_progress"}, {Step: "Fix the bug", Status: "pending"}},
	{{Step: "Read the code", Status: "completed"}, {Step: "Fix the bug", Status: "in_progress"}, {Step: "Run the tests", Status: "pending"}},
}

const (
	// PlanExplanation is the explanation of "plan the work"'s first plan.
	PlanExplanation = "Reading first, then the fix."
	// PlanAnswer is the answer after "plan the work" revised its plan.
	PlanAnswer = "The plan is done but for the tests."
)

// play is the fake's decision for one request.
type play struct {
	name string
	arg  string // the rest of the line after a "keyword:"
}

// choose picks what to play for r: title and side requests first, then
// the answer after a tool ran, then the newest prompt's keywords.
func choose(r Request) play {
	if r.ThreadSource == "thread_title" {
		return play{name: "title"}
	}
	prompt := r.LastPrompt()
	if (r.Kind != "" && r.Kind != "turn") || strings.Contains(prompt, "CONTEXT CHECKPOINT COMPACTION") {
		return play{name: "side"}
	}
	if _, ok := toolOutput(r); ok {
		return play{name: "followup"}
	}
	if name, arg, ok := agenttest.MatchScenario(prompt, Scenarios); ok {
		return play{name: name, arg: arg}
	}
	return play{name: "plain"}
}

// toolOutput is the tool call output that ends r's input: the request
// after a tool ran. Codex may note something of its own after the output
// before it asks the model again (a developer message "Approved command
// prefix saved: ..." once a command is approved with an exec-policy
// amendment); those notes are stepped over.
func toolOutput(r Request) (InputItem, bool) {
	i := len(r.Input) - 1
	for i >= 0 && r.Input[i].Type == "message" && r.Input[i].Role == "developer" {
		i--
	}
	if i >= 0 && (r.Input[i].Type == "function_call_output" || r.Input[i].Type == "custom_tool_call_output") {
		return r.Input[i], true
	}
	return InputItem{}, false
}

// AskOptions are the labels of the options of "ask user", in order.
var AskOptions = []string{"Postgres", "SQLite"}
