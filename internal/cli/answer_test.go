package cli

import (
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// lookout answer answers the waiting question; a second answer exits 6,
// one that does not fit exits 2, and export shows the answered question.
func TestCLIAnswersTheWaitingQuestion(t *testing.T) {
	h := cliHost(t)
	sid := h.DefaultSessionID()
	tok := "--token=" + h.Token()
	c := hosttest.Dial(t, h)
	sub, err := c.Subscribe(sid, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	st := model.NewState(sid)
	if _, err := st.LoadSnapshot(sid, sub.Epoch, *sub.Snapshot); err != nil {
		t.Fatal(err)
	}
	_, turn, err := c.Submit(sid, "q", "ask a question")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.WaitEvent(st, func(ev *model.Event) bool {
		return ev.Method == model.MethodItemStarted && ev.Item.Kind == model.KindQuestion
	}); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLIErr(t, "answer", h.URL(), "--session", sid, tok, "--option", "Nope"); code != exitUsage || !strings.Contains(stderr, "answerUnknownOption") {
		t.Fatalf("an answer that does not fit: exit %d, %q", code, stderr)
	}
	out, code := runCLI(t, "answer", h.URL(), "--session", sid, tok, "--option", "Race", "--text", "quickly")
	if code != 0 || !strings.Contains(out, "Race") {
		t.Fatalf("answer: exit %d, %q", code, out)
	}
	if _, code := runCLI(t, "answer", h.URL(), "--session", sid, tok, "--option", "Unit"); code != exitQuestionSettled {
		t.Fatalf("a second answer: exit %d, want %d", code, exitQuestionSettled)
	}
	if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(turn)); err != nil {
		t.Fatal(err)
	}
	out, code = runCLI(t, "export", h.URL(), "--session", sid, tok, "--format", "markdown", "--until-idle")
	if code != 0 || !strings.Contains(out, "## Question: Test suite (answered)") || !strings.Contains(out, "- [x] Race") || !strings.Contains(out, "Answer: quickly") {
		t.Fatalf("export: exit %d, %q", code, out)
	}
}
