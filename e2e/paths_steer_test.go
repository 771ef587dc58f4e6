package e2e

import (
	"strings"
	"testing"
)

// steeringAgents take input into a running turn (features.steer): the
// demo, and Codex through turn/steer. Claude Code and OpenCode do not.
var steeringAgents = agentSet{"demo", "codex"}

// rowSteer: alt+t while the slow turn runs sends the draft into it. With
// an agent that takes input mid-turn the screen shows it in the turn, the
// fake model's next call has it and the answer follows in the same turn;
// with one that does not, the status bar says so, the draft stays and
// reaches no model, and enter then queues it as usual.
func rowSteer(t *testing.T, a *agentTerm) {
	a.startSlow()
	n := a.callCount()
	word := a.mark("steered")
	prompt := a.sayPrompt(word)
	a.typeText(prompt)
	a.waitFor("the draft in the composer", func(s string) bool { return strings.Contains(promptLine(s), firstWords(prompt)) })
	a.keys("M-t")
	if !steeringAgents.has(a.agent.name) {
		a.waitFor("the refusal", func(s string) bool {
			return strings.Contains(s, "takes no input into a running turn") && strings.Contains(promptLine(s), firstWords(prompt))
		})
		for _, c := range a.callsSince(n) {
			if strings.Contains(c.all, word) {
				t.Fatal("a refused steer reached the model")
			}
		}
		a.keys("Enter") // queued behind the slow turn, as ever
		a.waitFor("the prompt queued", func(s string) bool { return strings.Contains(s, "You · queued") })
		a.keys("Escape")
		a.waitAnswer(word)
		a.settle()
		return
	}
	a.waitFor("the steer in the running turn", func(s string) bool {
		return strings.Contains(s, "You · into the running turn") && emptyComposer(s) && strings.Contains(statusBar(s), "running")
	})
	if a.agent.demo() {
		a.waitFor("the demo's reply", func(s string) bool { return strings.Contains(s, "Noted, while still working") })
		a.keys("Escape")
	} else {
		a.waitCall(n, "with the steered text", func(c modelCall) bool { return c.lastPrompt() == prompt })
		a.waitAnswer(word)
	}
	a.settle()
	j := a.journal()
	if len(j.QueuedTurns) != 0 {
		t.Fatalf("the steer queued a turn: %+v", j.QueuedTurns)
	}
	steered := 0
	for _, it := range j.Items {
		if it.Kind == "userMessage" && it.Steered && it.Text == prompt {
			steered++
		}
	}
	if steered != 1 {
		t.Fatalf("the journal holds %d steered messages %q, want 1", steered, prompt)
	}
}
