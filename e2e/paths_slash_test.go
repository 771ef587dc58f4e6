package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// rowSlashCompact types /comp, picks /compact from the list and runs it:
// the agent compacts its own way (the fake model gets the agent's
// compaction request; "/compact" is never a prompt to it), and the
// transcript shows the compaction.
func rowSlashCompact(t *testing.T, a *agentTerm) {
	compacted, calls := a.compactions(), a.callCount()
	a.typeText("/comp")
	a.waitFor("the command list on /compact", func(s string) bool {
		return strings.Contains(s, "› /compact") && strings.Contains(promptLine(s), "/comp")
	})
	a.keys("Enter")
	a.waitFor("the compaction on screen", func(s string) bool {
		return strings.Contains(s, "context compacted") && emptyComposer(s)
	})
	a.settle()
	a.st.compacted = true
	if got := a.compactions(); got <= compacted {
		t.Fatalf("the fake model got no compaction request (%d before, %d after)", compacted, got)
	}
	for _, c := range a.callsSince(calls) {
		if slices.Contains(c.prompts, "/compact") {
			t.Fatalf("/compact reached the model as a prompt: %q", c.prompts)
		}
	}
	if c := a.journal().lastItem("contextCompaction"); c.Status != "completed" {
		t.Fatalf("the host's newest compaction is %q, want completed", c.Status)
	}
}

// rowSlashNotOffered: the demo agent offers no /compact: enter says so,
// sends nothing and keeps the text.
func rowSlashNotOffered(t *testing.T, a *agentTerm) {
	prompts := len(a.journal().userTexts())
	a.typeText("/compact")
	a.waitFor("the command list", func(s string) bool { return strings.Contains(s, "› /compact") })
	a.keys("Enter")
	a.waitFor("why it was not sent", func(s string) bool {
		return strings.Contains(s, "/compact not sent") && strings.Contains(promptLine(s), "/compact")
	})
	if n := len(a.journal().userTexts()); n != prompts {
		t.Fatalf("the host got a prompt: %d before, %d after", prompts, n)
	}
	a.keys("C-c")
	a.waitFor("the composer to empty", emptyComposer)
}

// rowSlashUnknown: a /word nobody offers asks first; esc keeps it and
// sends nothing; y sends it as a plain prompt.
func rowSlashUnknown(t *testing.T, a *agentTerm) {
	line := "/" + a.mark("nosuch")
	calls, prompts := a.callCount(), len(a.journal().userTexts())
	a.typeText(line)
	a.waitFor("the draft", func(s string) bool { return strings.Contains(promptLine(s), line) })
	a.keys("Enter")
	a.waitFor("the question", func(s string) bool {
		return strings.Contains(s, line+" is not a command here: send it to the agent as text?")
	})
	a.keys("Escape")
	a.waitFor("the draft kept", func(s string) bool {
		return !strings.Contains(s, "is not a command here") && strings.Contains(promptLine(s), line)
	})
	time.Sleep(300 * time.Millisecond) // anything sent would have reached the host by now
	if n := len(a.journal().userTexts()); n != prompts || a.callCount() != calls {
		t.Fatalf("sent before the answer: %d prompts before, %d after", prompts, n)
	}
	a.keys("Enter")
	a.waitFor("the question again", func(s string) bool { return strings.Contains(s, "is not a command here") })
	a.keys("y")
	a.waitFor("the composer to empty", emptyComposer)
	if !a.agent.demo() {
		a.waitCall(calls, "with the /word as text", func(c modelCall) bool { return c.lastPrompt() == line })
	}
	a.settle()
	if u := a.journal().userTexts(); len(u) == 0 || u[len(u)-1] != line {
		t.Fatalf("the host's newest prompt is %q, want %q", u, line)
	}
}

// rowSlashNew: /new leaves the session for a new, empty one of the same
// agent on the same host.
func rowSlashNew(t *testing.T, a *agentTerm) {
	before := a.sessionIDs()
	a.typeText("/new")
	a.waitFor("the command list on /new", func(s string) bool { return strings.Contains(s, "› /new") })
	a.keys("Enter")
	a.waitFor("a new, empty session", func(s string) bool {
		return strings.Contains(s, "beginning of session") && emptyComposer(s) && !strings.Contains(s, a.st.firstPrompt)
	})
	ids := a.sessionIDs()
	if len(ids) != len(before)+1 || slices.Contains(before, ids[0]) {
		t.Fatalf("after /new the host lists %v, want a new session besides %v", ids, before)
	}
	a.st.session = ids[0]
}
