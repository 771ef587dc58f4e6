package e2e

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/agent/claude/claudetest"
)

// Claude Code, as the lookout binary runs it, writes its checklist twice
// (TodoWrite); the 80x24 screen shows one plan card with the revised
// list, no TodoWrite tool call, and the journal holds the plan ended with
// its turn.
func TestClaudePlanIsAChecklist(t *testing.T) {
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
	a.typeText("plan the work")
	a.keys("Enter")
	s := a.waitFor("the plan card and the answer", func(s string) bool {
		return strings.Contains(s, "Plan · 1/3 · ended") && strings.Contains(s, claudetest.PlanAnswer)
	})
	for _, want := range []string{"✓ " + claudetest.PlanTodos[1][0].Content, "▸ " + claudetest.PlanTodos[1][1].Content, "○ " + claudetest.PlanTodos[1][2].Content} {
		if !strings.Contains(s, want) {
			t.Fatalf("the plan card lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "TodoWrite") {
		t.Fatalf("TodoWrite shows as a tool call:\n%s", s)
	}
	if it := a.journal().lastItem("plan"); it.Status != "completed" {
		t.Fatalf("the journal's plan is %+v", it)
	}
}
