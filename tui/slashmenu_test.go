package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

// slashDriver is an 80x24 UI on a session whose agent offers /compact
// and /review, on a host that runs agent commands.
func slashDriver(t *testing.T) *driver {
	f := newFake(t)
	f.frame(model.MethodSessionState, map[string]any{"agent": "codex", "model": "gpt-5",
		"commands": []map[string]string{{"name": "compact", "description": "Compact"}, {"name": "review", "description": "Review my change"}}})
	f.edit(func(sn *sync.Picture, _ *model.State) { sn.AgentCommands = true })
	d := newDriver(t, 80, 24, Options{Source: f})
	d.pull()
	return d
}

func TestSlashListFiltersAndRunsCompact(t *testing.T) {
	d := slashDriver(t)
	d.typeText("/")
	for _, want := range []string{"/help", "/status", "/new", "/sessions", "/export", "/compact"} {
		d.wantScreen(want)
	}
	d.typeText("comp")
	d.wantScreen("› /compact")
	d.noScreen("/help")
	if n := len(d.lines()); n != 24 {
		t.Fatalf("the frame has %d lines at 80x24", n)
	}
	if !strings.Contains(d.lines()[d.lineOf("› /compact")+2], "/comp") {
		t.Fatalf("the composer's text is not under the list:\n%s", d.screen())
	}
	d.keys("enter")
	if got := d.f.Calls(); !slices.Equal(got, []string{"command:compact:/compact"}) {
		t.Fatalf("calls %q, want /compact as the agent command", got)
	}
	d.noScreen("› /compact")
}

func TestSlashListKeys(t *testing.T) {
	d := slashDriver(t)
	d.typeText("/")
	d.keys("down", "down", "up")
	d.wantScreen("› /status")
	d.keys("tab")
	if got := d.m.comp.value(); got != "/status " {
		t.Fatalf("tab completed to %q", got)
	}
	d.noScreen("directory and usage") // a space ends the name: the list closes

	d.keys("ctrl+c") // clears the draft
	d.typeText("/rev")
	d.wantScreen("(agent) Review my change")
	d.keys("esc")
	d.noScreen("Review my change")
	if got := d.m.comp.value(); got != "/rev" {
		t.Fatalf("esc changed the text to %q", got)
	}
	d.typeText("i")
	d.wantScreen("› /review") // typing again opens it again
	d.keys("esc")
	if len(d.f.Calls()) != 0 {
		t.Fatalf("the list's keys sent %q", d.f.Calls())
	}
}

func TestSlashUnknownWordAsksFirst(t *testing.T) {
	d := slashDriver(t)
	d.typeText("/nosuch")
	d.keys("enter")
	d.wantScreen("/nosuch is not a command here: send it to the agent as text?")
	if len(d.f.Calls()) != 0 {
		t.Fatalf("sent before the answer: %q", d.f.Calls())
	}
	d.keys("esc")
	d.noScreen("is not a command here")
	if d.m.comp.value() != "/nosuch" || len(d.f.Calls()) != 0 {
		t.Fatalf("esc: composer %q, calls %q", d.m.comp.value(), d.f.Calls())
	}
	d.keys("enter", "y")
	if got := d.f.Calls(); !slices.Equal(got, []string{"submit:/nosuch"}) {
		t.Fatalf("calls %q, want /nosuch as a plain prompt", got)
	}
}

func TestSlashCommandTheAgentLacks(t *testing.T) {
	d := newDriver(t, 80, 24, Options{Source: newFake(t)}) // the demo: no commands state
	d.typeText("/compact")
	d.keys("enter")
	d.wantScreen("/compact not sent")
	if len(d.f.Calls()) != 0 || d.m.comp.value() != "/compact" {
		t.Fatalf("calls %q, composer %q", d.f.Calls(), d.m.comp.value())
	}
}

func TestSlashLookoutCommands(t *testing.T) {
	d := slashDriver(t)
	d.typeText("/status")
	d.keys("enter")
	d.wantScreen("Session status")
	d.wantScreen("gpt-5")
	d.keys("esc")
	d.typeText("/help")
	d.keys("enter", "end")
	d.wantScreen("Slash commands")
	d.keys("esc")
	d.typeText("/new")
	d.keys("enter")
	d.wantScreen("no new session here")
	if d.m.comp.value() != "" || len(d.f.Calls()) != 0 {
		t.Fatalf("composer %q, calls %q", d.m.comp.value(), d.f.Calls())
	}
}

// A question about a draft that has changed since (ctrl+c cleared it)
// answers nothing: the y after it types.
func TestSlashQuestionEndsWithItsDraft(t *testing.T) {
	d := slashDriver(t)
	d.typeText("/nosuch")
	d.keys("enter")
	d.wantScreen("is not a command here")
	d.keys("ctrl+c")
	d.noScreen("is not a command here")
	d.typeText("y")
	if len(d.f.Calls()) != 0 || d.m.comp.value() != "y" {
		t.Fatalf("calls %q, composer %q", d.f.Calls(), d.m.comp.value())
	}
}
