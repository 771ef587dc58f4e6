package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
)

// runCLIInput runs the command line with stdin, and returns its stdout,
// stderr and exit code.
func runCLIInput(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetIn(strings.NewReader(stdin))
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	if err := root.ExecuteContext(context.Background()); err != nil {
		code = exitCode(err)
		errOut.WriteString(err.Error())
	}
	return out.String(), errOut.String(), code
}

// lookout delete asks before it deletes (a no keeps the session), deletes
// on y or with --yes, and says exit 4 for a session the host lacks.
func TestDeleteCommandAsksThenDeletes(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	c := hosttest.Dial(t, h)
	var created struct {
		SessionID string `json:"sessionId"`
	}
	c.MustCall(t, "session/create", map[string]any{"title": "doomed"}, &created)
	sid, tok := created.SessionID, "--token="+h.Token()
	listed := func() string {
		out, code := runCLI(t, "sessions", h.URL(), tok)
		if code != 0 {
			t.Fatalf("sessions: exit %d", code)
		}
		return out
	}

	_, errOut, code := runCLIInput(t, "n\n", "delete", h.URL(), tok, "--session", sid)
	if code != exitFailure || !strings.Contains(errOut, "Delete session "+sid+" (\u201cdoomed\u201d, idle)?") || !strings.Contains(errOut, "not confirmed") {
		t.Fatalf("answered n: exit %d\n%s", code, errOut)
	}
	if !strings.Contains(listed(), sid) {
		t.Fatal("a session was deleted without a yes")
	}
	if _, errOut, code := runCLIInput(t, "", "delete", h.URL(), tok, "--session", sid); code != exitFailure {
		t.Fatalf("no answer at all: exit %d\n%s", code, errOut)
	}

	out, errOut, code := runCLIInput(t, "y\n", "delete", h.URL(), tok, "--session", sid)
	if code != 0 || !strings.Contains(out, "deleted session "+sid) {
		t.Fatalf("answered y: exit %d\n%s%s", code, out, errOut)
	}
	if strings.Contains(listed(), sid) {
		t.Fatal("the deleted session is still listed")
	}

	if _, errOut, code := runCLIInput(t, "", "delete", h.URL(), tok, "--session", sid, "--yes"); code != exitNoSession {
		t.Fatalf("deleting it again with --yes: exit %d\n%s", code, errOut)
	}
	if _, errOut, code := runCLIInput(t, "y\n", "delete", h.URL(), tok, "--session", "no-such"); code != exitNoSession {
		t.Fatalf("asking about an unknown session: exit %d\n%s", code, errOut)
	}
	if _, _, code := runCLIInput(t, "", "delete", h.URL(), tok); code != exitUsage {
		t.Fatalf("without --session: exit %d", code)
	}

	c.MustCall(t, "session/create", map[string]any{"title": "quick"}, &created)
	if out, errOut, code := runCLIInput(t, "", "delete", h.URL(), tok, "--session", created.SessionID, "--yes"); code != 0 || strings.Contains(errOut, "[y/N]") {
		t.Fatalf("--yes: exit %d\n%s%s", code, out, errOut)
	}
}
