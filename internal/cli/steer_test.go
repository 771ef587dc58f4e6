package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host/hosttest"
)

// TestCLISendSteer: send --steer needs --session, exits 6 when no turn
// runs, and lands in a running turn (the demo's slow one), printing it.
func TestCLISendSteer(t *testing.T) {
	h := cliHost(t)
	sid := h.DefaultSessionID()
	tok := "--token=" + h.Token()
	if _, code := runCLI(t, "send", h.URL(), tok, "--steer", "words"); code != exitUsage {
		t.Fatalf("send --steer without --session: exit %d, want %d", code, exitUsage)
	}
	if _, code := runCLI(t, "send", h.URL(), "--session", sid, tok, "--steer", "too early"); code != exitTurnFailed {
		t.Fatalf("send --steer with no turn running: exit %d, want %d", code, exitTurnFailed)
	}
	c := hosttest.Dial(t, h)
	_, turn, err := c.Submit(sid, "slow-1", "slow please")
	if err != nil {
		t.Fatal(err)
	}
	defer c.MustCall(t, "turn/interrupt", map[string]any{"sessionId": sid, "turnId": turn}, nil)
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, code := runCLI(t, "send", h.URL(), "--session", sid, tok, "--steer", "the blue one")
		if code == 0 {
			if !strings.HasPrefix(out, "steered into turn ") {
				t.Fatalf("send --steer printed %q", out)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("send --steer never landed in the slow turn: exit %d", code)
		}
		time.Sleep(100 * time.Millisecond)
	}
	out, code := runCLI(t, "export", h.URL(), "--session", sid, tok, "--format", "markdown")
	if code != 0 || !strings.Contains(out, "## User (into the running turn)\n\nthe blue one") {
		t.Fatalf("export (exit %d) does not show the steer:\n%s", code, out)
	}
}
