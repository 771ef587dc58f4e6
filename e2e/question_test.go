package e2e

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/agent/claude/claudetest"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
	"github.com/lookout-sh/lookout/agent/opencode/opencodetest"
)

// questionAgent is an agent that asks the user a question, and what the
// fake model makes it ask and answer.
type questionAgent struct {
	name              string
	question, header  string
	options           []string
	answerFollows     string // on screen once the model has the answer
	toolResultCarries func(picked string) string
}

var questionAgents = []questionAgent{
	{name: "claude", question: claudetest.AskQuestion, header: claudetest.AskHeader, options: claudetest.AskOptions,
		answerFollows: claudetest.AskAnswerPrefix,
		toolResultCarries: func(picked string) string {
			return `"` + claudetest.AskQuestion + `"="` + picked + `"`
		}},
	{name: "codex", question: codextest.AskQuestion, header: codextest.AskHeader, options: codextest.AskOptions,
		answerFollows: codextest.AskAnswerPrefix,
		toolResultCarries: func(picked string) string {
			return `"` + codextest.AskQuestionID + `":{"answers":["` + picked + `"]}`
		}},
	{name: "opencode", question: opencodetest.AskQuestion, header: opencodetest.AskHeader, options: opencodetest.AskOptions,
		answerFollows:     opencodetest.FollowupPrefix,
		toolResultCarries: func(picked string) string { return picked }},
}

// The agent asks a question (Claude Code's AskUserQuestion, Codex's
// request_user_input, OpenCode's question tool); a second client attached at 80x24 answers it with its
// keys; the first client's card shows it answered and the fake model
// receives the answer in the tool's result.
func TestQuestionAnsweredFromASecondClient(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	for _, qa := range questionAgents {
		t.Run(qa.name, func(t *testing.T) { testQuestionFromASecondClient(t, qa) })
	}
}

func testQuestionFromASecondClient(t *testing.T, qa questionAgent) {
	var agent pathAgent
	for _, ag := range pathAgents {
		if ag.name == qa.name {
			agent = ag
		}
	}
	a := startAgentTerm(t, agent)
	second := startTermSized(t, "second", a.dir, a.env, fmt.Sprintf("%s attach --data %s --session %s --theme dark",
		a.bin, shellQuote(a.data), shellQuote(a.st.session)), 80, 24)
	second.waitFor("the second client, live", func(s string) bool {
		return emptyComposer(s) && !strings.Contains(s, "Connecting")
	})

	a.typeText("ask user which database to use")
	a.keys("Enter")
	a.waitText("your own answer")
	s := second.waitText("your own answer")
	for _, want := range []string{qa.header + " · " + qa.question, "1. ( ) " + qa.options[0], "2. ( ) " + qa.options[1], "enter sends"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the second client's card lacks %q:\n%s", want, s)
		}
	}
	second.keys("2")
	second.waitText("2. (•) " + qa.options[1])
	second.keys("Enter")

	a.waitFor("the question answered on the first client", func(s string) bool {
		return strings.Contains(s, "Question · "+qa.header+" · answered") && !strings.Contains(s, "your own answer") &&
			strings.Contains(s, qa.answerFollows)
	})
	want := qa.toolResultCarries(qa.options[1])
	var got string
	for _, c := range a.calls() {
		if r := c.lastToolResult(); strings.Contains(r, want) {
			got = r
		}
	}
	if got == "" {
		t.Fatalf("no model request carries %s", want)
	}
	if j := a.journal(); j.lastItem("question").Status != "answered" {
		t.Fatalf("the journal's question is %+v", j.lastItem("question"))
	}
}
