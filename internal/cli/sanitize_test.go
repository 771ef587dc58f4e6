package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext/termtexttest"
)

// seenMark starts every hostile text, so a test can tell the text was
// printed (cleaned) rather than left out.
const seenMark = "SEEN"

// hostileText is every hostile input of termtexttest, one per line.
func hostileText() string {
	var parts []string
	for _, c := range termtexttest.Cases() {
		parts = append(parts, seenMark+" "+c.In)
	}
	return strings.Join(parts, "\n")
}

// hostileAgent runs every turn alike: it names the session with every
// hostile input, emits an item of each kind per input, a warning, a tool
// call waiting for approval whose command hides its start behind a bare
// CR, and fails the turn with a hostile error message.
type hostileAgent struct{}

func (hostileAgent) Launch(string) error { return nil }

func (hostileAgent) Run(ctx context.Context, t *host.Turn) error {
	all := hostileText()
	if err := t.SetState(map[string]any{"title": all}); err != nil {
		return err
	}
	for _, c := range termtexttest.Cases() {
		s := seenMark + " " + c.In
		for _, it := range []struct {
			kind, status string
			fields       map[string]any
		}{
			{model.KindAgentMessage, model.StatusCompleted, map[string]any{"text": s}},
			{model.KindReasoning, model.StatusCompleted, map[string]any{"summary": []string{s}}},
			{model.KindToolCall, model.StatusFailed, map[string]any{"toolName": s, "inputText": s, "output": s, "exitCode": 1, "error": map[string]any{"message": s}}},
			{model.KindError, model.StatusFailed, map[string]any{"message": s}},
			{"webSearch", s, map[string]any{"query": s, s: s}},
		} {
			if _, err := t.RecordItem(it.kind, it.status, it.fields); err != nil {
				return err
			}
		}
	}
	if err := t.Warning(model.Warning{RequestKind: "turn", Code: all, Message: all}); err != nil {
		return err
	}
	cmd := "rm -rf ~\rls"
	id, err := t.StartItem(model.KindToolCall, model.StatusWaitingUser, map[string]any{"toolName": "bash", "inputText": cmd, "input": map[string]any{"command": cmd}})
	if err != nil {
		return err
	}
	if _, err := t.RequestApproval(ctx, id, "Run "+cmd+"\n"+all); err != nil {
		return err
	}
	if err := t.CompleteItem(id, model.StatusCompleted, map[string]any{"output": "10%\r100%\n", "exitCode": 0}); err != nil {
		return err
	}
	return &host.TurnFailure{Code: "hostile", Message: all}
}

// checkPrinted fails unless out holds no control character or escape
// sequence a terminal would obey (LF aside) and shows the marker.
func checkPrinted(t *testing.T, what, out string) {
	t.Helper()
	if err := termtexttest.CheckPlain(out); err != nil {
		t.Errorf("%s: %v", what, err)
	}
	if !strings.Contains(out, seenMark) {
		t.Errorf("%s does not show the host's text:\n%s", what, out)
	}
}

// TestCLIPrintsNoHostEscapes: the plain-text commands print host and agent
// text (session titles, transcripts, approval summaries, turn errors)
// without a raw control character or escape sequence, and show whole
// what send approves. The JSON outputs escape C1 controls, which JSON
// itself allows raw.
func TestCLIPrintsNoHostEscapes(t *testing.T) {
	h := hosttest.Start(t, host.Options{AgentImpl: hostileAgent{}})
	c := hosttest.Dial(t, h)
	for _, cs := range termtexttest.Cases() {
		c.MustCall(t, "session/create", map[string]any{"title": seenMark + " " + cs.In}, nil)
	}
	var created struct {
		SessionID string `json:"sessionId"`
	}
	c.MustCall(t, "session/create", map[string]any{"title": "hostile turn"}, &created)
	sid, tok := created.SessionID, "--token="+h.Token()

	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs([]string{"send", h.URL(), "--session", sid, tok, "--on-approval", "approve", hostileText()})
	err := root.ExecuteContext(context.Background())
	if code := exitCode(err); err == nil || code != exitTurnFailed {
		t.Fatalf("send: exit %d: %v", code, err)
	}
	printError(&errOut, err)
	checkPrinted(t, "send's output", out.String())
	checkPrinted(t, "send's messages", errOut.String())
	if !strings.Contains(errOut.String(), "approving approval") || !strings.Contains(errOut.String(), "Run rm -rf ~␍ls␤") {
		t.Errorf("send does not show the whole approval summary:\n%s", errOut.String())
	}

	for _, cmd := range []struct {
		name string
		args []string
	}{
		{"sessions", []string{"sessions", h.URL(), tok}},
		{"sessions json", []string{"sessions", h.URL(), tok, "--json"}},
		{"export markdown", []string{"export", h.URL(), "--session", sid, tok, "--format", "markdown"}},
		{"export json", []string{"export", h.URL(), "--session", sid, tok, "--format", "json"}},
		{"watch", []string{"watch", h.URL(), "--session", sid, tok, "--until-idle"}},
		{"watch json", []string{"watch", h.URL(), "--session", sid, tok, "--until-idle", "--json"}},
	} {
		name := cmd.name
		out, code := runCLI(t, cmd.args...)
		if code != 0 {
			t.Fatalf("%s: exit %d", name, code)
		}
		checkPrinted(t, name, out)
		if strings.HasSuffix(name, "json") {
			for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
				if !json.Valid([]byte(line)) {
					t.Errorf("%s: line %d is not JSON: %q", name, i+1, line)
				}
			}
		}
		if name == "export markdown" {
			if !strings.Contains(out, "## Tool: bash\n\nInput:\n\n```\nrm -rf ~␍ls\n```") {
				t.Errorf("export markdown does not show the approved command whole:\n%s", out)
			}
			if !strings.Contains(out, "Output:\n\n```\n100%\n") {
				t.Errorf("export markdown lost the output's progress-bar CR:\n%s", out)
			}
		}
	}

	// What JSON escapes decodes to what the host sent: the session titles.
	out2, _ := runCLI(t, "sessions", h.URL(), tok, "--json")
	var ss []struct {
		Title string `json:"title"`
	}
	if err := json.Unmarshal([]byte(out2), &ss); err != nil {
		t.Fatal(err)
	}
	titles := map[string]bool{}
	for _, s := range ss {
		titles[s.Title] = true
	}
	for _, cs := range termtexttest.Cases() {
		if want := seenMark + " " + cs.In; strings.ToValidUTF8(want, "\ufffd") == want && !titles[want] {
			t.Errorf("sessions --json: title %q not listed as sent", want)
		}
	}
}
