package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// A failed turn says why in the transcript (the host's error item, its
// text made safe for the terminal) and in the diagnostics view (its code
// and whole message), not only in the status bar.
func TestAFailedTurnSaysWhyInTheTranscriptAndDiagnostics(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 1)
	d := newDriver(t, 120, 30, Options{Source: f, Now: func() time.Time { return fixedNow }})
	f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
	why := `codex app-server did not start: Error: CODEX_HOME points to "/nowhere", but that path does not exist`
	f.item(completed, obj{"itemId": "e1", "kind": "error", "status": "failed", "code": "agentStartFailed",
		"message": why + "\x1b]52;c;aGk=\x07\x1b[2J"})
	f.frame(model.MethodTurnCompleted, obj{"turnId": "t1", "status": "failed",
		"error": obj{"code": "agentStartFailed", "message": why}})
	d.pull()
	flat := strings.Join(strings.Fields(d.screen()), " ")
	if !strings.Contains(flat, "CODEX_HOME points to \"/nowhere\", but that path does not exist") {
		t.Fatalf("the transcript lacks the reason:\n%s", d.screen())
	}
	if c := d.m.View().Content; strings.Contains(c, "\x1b]52") || strings.Contains(c, "\x1b[2J") {
		t.Fatal("the agent's escapes reached the terminal")
	}
	d.keys("f2")
	d.wantScreen("turn        agentStartFailed")
	flat = strings.Join(strings.Fields(d.screen()), " ")
	if !strings.Contains(flat, "the turn failed: "+why) {
		t.Fatalf("the diagnostics view lacks the reason:\n%s", d.screen())
	}
	// Seen again (a later frame), the same turn is logged once.
	f.frame(model.MethodSessionState, obj{"title": "after"})
	d.pull()
	if n := strings.Count(d.screen(), "agentStartFailed"); n != 1 {
		t.Fatalf("the failed turn is logged %d times", n)
	}
}
