package claudetest

import (
	"github.com/lookout-sh/lookout/agent/agenttest"
)

// Scenario is one behaviour of the fake model, selected by a keyword in
// the newest prompt of a request.
type Scenario = agenttest.Scenario

// Scenarios lists the prompt keywords of the fake model. The first match
// in this order wins; a prompt that matches none plays "plain".
var Scenarios = []Scenario{
	{Name: "http 500", Keyword: "http 500", Does: "HTTP 500 (api_error) on every attempt: Claude Code retries HomeOptions.MaxRetries times, announcing each retry (system/api_retry), then the turn fails"},
	{Name: "retry", Keyword: "retry", Does: "HTTP 500 on the first FailAttempts attempts of the prompt, then the plain answer: Claude Code announces each retry (system/api_retry) and the turn completes"},
	{Name: "model error", Keyword: "model error", Does: "HTTP 400 invalid_request_error: Claude Code does not retry, the turn fails"},
	{Name: "run", Keyword: "run:", Does: "text, then a Bash tool_use running the rest of the line (Claude Code asks can_use_tool unless it deems the command read-only); then the command's output (CommandAnswerPrefix)"},
	{Name: "write", Keyword: "write:", Does: "a Write tool_use writing WriteContent to the path on the rest of the line (Claude Code asks can_use_tool); then EditAnswerPrefix"},
	{Name: "edit", Keyword: "edit:", Does: "a Read tool_use of the path on the rest of the line, then an Edit replacing EditOld with EditNew in it (Claude Code asks can_use_tool); then EditAnswerPrefix"},
	{Name: "ask", Keyword: "ask user", Does: "an AskUserQuestion tool_use asking AskQuestion with AskOptions, single choice (Claude Code asks can_use_tool); then AskAnswerPrefix and the tool_result Claude Code made of the answer"},
	{Name: "plan", Keyword: "plan the work", Does: "a TodoWrite tool_use of PlanTodos[0] (Claude Code runs it without asking), then after its result a TodoWrite of PlanTodos[1], the plan revised; then PlanAnswer"},
	{Name: "slow", Keyword: "slow", Does: "thinking, then an answer of SlowDeltas deltas \"slow0 \", \"slow1 \", ... one per SlowInterval, ending early when the request ends (interrupt, kill)"},
	{Name: "long", Keyword: "long", Does: "LongText in LongChunk-character deltas, LongRate a second (default as fast as possible), no thinking"},
	{Name: "say", Keyword: "say:", Does: "the rest of the line as the answer, word by word, no thinking"},
	{Name: "plain", Keyword: "", Does: "a thinking block (PlainThinking in two deltas), then PlainAnswer (markdown) in several deltas"},
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
	// AskQuestion and AskHeader are what "ask user" asks; AskOptions
	// are its options' labels.
	AskQuestion = "Which database should the service use?"
	AskHeader   = "Database"
	// AskAnswerPrefix starts the answer after AskUserQuestion ran; the
	// tool_result's text follows.
	AskAnswerPrefix = "The user chose:"
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

// PlanAnswer is the answer after "plan the work" revised its plan.
const PlanAnswer = "The plan is done but for the tests."

// PlanTodo is one entry of a TodoWrite input, as Claude Code takes it.
type PlanTodo struct {
	Content    string `json:"content"`
	Status     string `json:"status"` // pending, in_progress, completed
	ActiveForm string `json:"activeForm"`
}

// PlanTodos are the two todo lists "plan the work" writes: the second
// completes the first step, starts the second and adds a step.
var PlanTodos = [][]PlanTodo{
	{
		{Content: "Read the code", Status: "in_progress", ActiveForm: "Reading the code"},
		{Content: "Fix the bug", Status: "pending", ActiveForm: "Fixing the bug"},
	},
	{
		{Content: "Read the code", Status: "completed", ActiveForm: "Reading the code"},
		{Content: "Fix the bug", Status: "in_progress", ActiveForm: "Fixing the bug"},
		{Content: "Run the tests", Status: "pending", ActiveForm: "Running the tests"},
	},
}

// AskOptions are the labels of the options "ask user" offers.
var AskOptions = []string{"Postgres", "SQLite"}

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
	if name, arg, ok := agenttest.MatchScenario(prompt, Scenarios); ok {
		return play{name: name, arg: arg}
	}
	return play{name: "plain"}
}
