package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
)

// failingStartAgent fails every turn the way a bridge whose agent would
// not start does: a typed failure and no item of its own.
type failingStartAgent struct{}

func (failingStartAgent) Launch(string) error { return nil }

func (failingStartAgent) Run(context.Context, *host.Turn) error {
	return &host.TurnFailure{Code: "agentStartFailed", Message: "codex app-server did not start: Error: CODEX_HOME points to \"/nowhere\", but that path does not exist"}
}

// Why a turn failed is in the exported transcript, markdown and JSON.
func TestExportShowsWhyATurnFailed(t *testing.T) {
	h := hosttest.Start(t, host.Options{AgentImpl: failingStartAgent{}})
	var created struct {
		SessionID string `json:"sessionId"`
	}
	hosttest.Dial(t, h).MustCall(t, "session/create", map[string]any{}, &created)
	sid, tok := created.SessionID, "--token="+h.Token()
	if _, code := runCLI(t, "send", h.URL(), "--session", sid, tok, "hello"); code != exitTurnFailed {
		t.Fatalf("send: exit %d, want %d", code, exitTurnFailed)
	}
	md, code := runCLI(t, "export", h.URL(), "--session", sid, tok, "--format", "markdown")
	if code != 0 {
		t.Fatalf("export: exit %d", code)
	}
	if !strings.Contains(md, "## Error\n\ncodex app-server did not start: Error: CODEX_HOME points to \"/nowhere\"") {
		t.Errorf("the markdown export lacks the reason:\n%s", md)
	}
	js, code := runCLI(t, "export", h.URL(), "--session", sid, tok, "--format", "json")
	if code != 0 || !strings.Contains(js, `"kind":"error"`) || !strings.Contains(js, "CODEX_HOME points to") {
		t.Errorf("the JSON export lacks the error item (exit %d):\n%s", code, js)
	}
}
