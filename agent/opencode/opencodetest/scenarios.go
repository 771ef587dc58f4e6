package opencodetest

import (
	"fmt"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// Scenario is one behaviour of the fake model, selected by a keyword in
// the newest user message of a request.
type Scenario = agenttest.Scenario

// Scenarios lists the prompt keywords of the fake model. The first match
// in this order wins; a prompt that matches none plays "plain".
var Scenarios = []Scenario{
	{Name: "model error", Keyword: "model error", Does: "HTTP 400 with a JSON error body (not retried): session.error APIError, the turn fails"},
	{Name: "retry", Keyword: "retry", Does: "HTTP 503 on the first FailAttempts attempts of the prompt, then the plain answer; OpenCode reports session.status retry in between"},
	{Name: "disconnect", Keyword: "disconnect", Does: "half the plain answer, then the connection drops, on the first FailAttempts attempts of the prompt; then the plain answer"},
	{Name: "run", Keyword: "run:", Does: "a bash tool call with the rest of the line as its command"},
	{Name: "write", Keyword: "write:", Does: "a write tool call creating the named absolute path holding WriteContent"},
	{Name: "edit", Keyword: "edit:", Does: "an edit tool call replacing WriteLine by EditedLine in the named absolute path"},
	{Name: "ask", Keyword: "ask user", Does: "a question tool call asking AskQuestion with AskOptions, single choice, typed answers allowed (OpenCode sends question.asked); after the answer, the followup quoting the tool's result"},
	{Name: "plan", Keyword: "plan the work", Does: "a todowrite call of PlanTodos[0]; after its result, one of PlanTodos[1] (the list revised); then PlanAnswer"},
	{Name: "slow", Keyword: "slow", Does: "an answer of SlowDeltas deltas \"slow0 \", \"slow1 \", ... one per SlowInterval, ending early when the request ends (abort, kill)"},
	{Name: "long", Keyword: "long", Does: "LongText in LongChunk-character deltas, LongRate a second (default as fast as possible), no reasoning"},
	{Name: "say", Keyword: "say:", Does: "the rest of the line as the answer, word by word, no reasoning"},
	{Name: "plain", Keyword: "", Does: "reasoning_content PlainReasoning in two deltas, then PlainAnswer (markdown) in several deltas"},
}

// Fixed texts of the scenarios, for assertions.
const (
	// PlainReasoning is the reasoning of the plain scenario.
	PlainReasoning = "Thinking about how to answer."
	// PlainAnswer is the plain scenario's answer.
	PlainAnswer = "Hello from the **fake model**.\n\nThis answer is deterministic:\n\n- it streams in several deltas\n- it names `opencodetest`\n"
	// Title answers OpenCode's title requests.
	Title = "Fake session title"
	// SummaryAnswer answers OpenCode's compaction (summary) requests.
	SummaryAnswer = "## Objective\n- (a fake summary of the conversation)\n"
	// FollowupPrefix starts the answer after a tool ran; the tool's result
	// follows in a fenced block.
	FollowupPrefix = "Tool result:"
	// WriteLine is the first line of the file write: creates.
	WriteLine = "hello from the fake model"
	// WriteContent is the whole file write: creates.
	WriteContent = WriteLine + "\nsecond line\n"
	// EditedLine replaces WriteLine in edit:.
	EditedLine = "hello again from the fake model"
	// AskQuestion, AskHeader and AskOptions are the question of "ask user".
	AskQuestion = "Which database should the service use?"
	AskHeader   = "Database"
	// ErrorMessage is the error message of the model error and retry
	// scenarios' failing answers.
	ErrorMessage = "fake upstream failure"
)

// PlanTodos are the two todo lists of "plan the work", in OpenCode's
// todowrite shape: the first call's, then the revision.
var PlanTodos = [2][]map[string]any{
	{
		{"id": "1", "content": "Read the code", "status": "in_progress", "priority": "high"},
		{"id": "2", "content": "Run the tests", "status": "pending", "priority": "medium"},
		{"id": "3", "content": "Ask the user", "status": "pending", "priority": "low"},
	},
	{
		{"id": "1", "content": "Read the code", "status": "completed", "priority": "high"},
		{"id": "2", "content": "Run the tests", "status": "in_progress", "priority": "medium"},
		{"id": "3", "content": "Ask the user", "status": "cancelled", "priority": "low"},
	},
}

// PlanAnswer is the answer of "plan the work" after its two todowrite calls.
const PlanAnswer = "The plan is done."

// AskOptions are the labels of the options of "ask user", in order.
var AskOptions = []string{"Postgres", "SQLite"}

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
	if r.IsCompaction() {
		// The conversation it quotes holds the scenarios' keywords: the
		// summary never plays one (a tool call there fails the summary).
		return play{name: "summary"}
	}
	if n := len(r.Messages); n > 0 && r.Messages[n-1].Role == "tool" {
		if name, _, ok := agenttest.MatchScenario(r.LastPrompt(), Scenarios); ok && name == "plan" {
			return play{name: "plan", arg: fmt.Sprint(r.toolCalls("todowrite"))}
		}
		return play{name: "followup"}
	}
	if name, arg, ok := agenttest.MatchScenario(r.LastPrompt(), Scenarios); ok {
		return play{name: name, arg: arg}
	}
	return play{name: "plain"}
}
