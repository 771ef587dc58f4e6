package e2e

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/agent/claude/claudetest"
)

// Claude Code asks a question (AskUserQuestion); a second client
// attached at 80x24 answers it with its keys; the first client's card
// shows it answered and the fake model receives the answer in its
// tool_result.
func TestClaudeQuestionAnsweredFromASecondClient(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	var claude pathAgent
	for _, ag := range pathAgents {
		if ag.name == "claude" {
			claude = ag
		}
	}
	a := startAgentTerm(t, claude)
	second := startTermSized(t, "second", a.dir, a.env, fmt.Sprintf("%s attach --data %s --session %s --theme dark",
		a.bin, shellQuote(a.data), shellQuote(a.st.session)), 80, 24)
	second.waitFor("the second client, live", func(s string) bool {
		return emptyComposer(s) && !strings.Contains(s, "Connecting")
	})

	a.typeText("ask user which database to use")
	a.keys("Enter")
	a.waitText("your own answer")
	s := second.waitText("your own answer")
	for _, want := range []string{"Database · " + claudetest.AskQuestion, "1. ( ) " + claudetest.AskOptions[0], "2. ( ) " + claudetest.AskOptions[1], "enter sends"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the second client's card lacks %q:\n%s", want, s)
		}
	}
	second.keys("2")
	second.waitText("2. (•) " + claudetest.AskOptions[1])
	second.keys("Enter")

	a.waitFor("the question answered on the first client", func(s string) bool {
		return strings.Contains(s, "Question · Database · answered") && !strings.Contains(s, "your own answer") &&
			strings.Contains(s, claudetest.AskAnswerPrefix)
	})
	want := `"` + claudetest.AskQuestion + `"="` + claudetest.AskOptions[1] + `"`
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
