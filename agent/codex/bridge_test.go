package codex_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// Each test below drives the real codex app-server through a real host
// and asserts the transcript the client folds: what is Codex's own. The
// behaviours every bridge shows are the contract suite's (contract_test.go).

// TestDenyReasonReachesTheModel: a deny's reason reaches Codex's model in
// the model call after the refusal, after the refused command's result
// (issue 25: Codex's decisions carry no message; the bridge steers the
// turn with it).
func TestDenyReasonReachesTheModel(t *testing.T) {
	const reason = "Do not touch files; list them instead."
	r := newRig(t, rigOptions{})
	turn := r.Submit("run: touch reasoned.txt")
	ask, _ := r.Until("the approval", agenttest.IsApproval)
	before := len(r.fake.Requests())
	r.Deny(ask.ApprovalID, reason)
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	agenttest.WantCompleted(t, done)
	reqs := r.fake.Requests()[before:]
	if len(reqs) == 0 {
		t.Fatal("no model call after the deny")
	}
	next := reqs[0]
	refused, told := -1, -1
	for i, it := range next.Input {
		switch {
		case it.Type == "function_call_output" && strings.Contains(it.Output, "rejected"):
			refused = i
		case it.IsPrompt() && it.Text == reason:
			told = i
		}
	}
	if refused < 0 || told < refused {
		t.Errorf("the model call after the deny has the refusal at %d and the reason at %d, want the reason after it; input %+v", refused, told, next.Input)
	}
	if n := len(r.Items(model.KindUserMessage, turn)); n != 1 {
		t.Errorf("%d user messages in the turn, want the prompt alone (the reason is not repeated)", n)
	}
	if _, err := os.Stat(filepath.Join(r.work, "reasoned.txt")); err == nil {
		t.Error("the denied command ran")
	}
}

func TestPatchIsAFileChangeWithItsDiff(t *testing.T) {
	r := newRig(t, rigOptions{})
	done, _ := r.Turn("patch: notes.txt")
	agenttest.WantCompleted(t, done)
	fc := r.One(model.KindFileChange, done.TurnID)
	ch := fc.FileChanges()
	if fc.Status != model.StatusCompleted || len(ch) != 1 {
		t.Fatalf("fileChange = %s %+v", fc.Status, ch)
	}
	if ch[0].Path != "notes.txt" || ch[0].Kind != "add" || !strings.Contains(ch[0].Diff, "+"+codextest.PatchLine) {
		t.Errorf("change = %+v, want notes.txt added with its line", ch[0])
	}
	if b, err := os.ReadFile(filepath.Join(r.work, "notes.txt")); err != nil || !strings.Contains(string(b), codextest.PatchLine) {
		t.Errorf("the patch did not apply: %q %v", b, err)
	}
	// An update of the same file is a unified diff of the change.
	done, _ = r.Turn("patch update: notes.txt")
	agenttest.WantCompleted(t, done)
	up := r.One(model.KindFileChange, done.TurnID).FileChanges()
	if len(up) != 1 || up[0].Kind != "update" || !strings.Contains(up[0].Diff, "-"+codextest.PatchLine) || !strings.Contains(up[0].Diff, "+"+codextest.PatchUpdatedLine) {
		t.Errorf("update = %+v", up)
	}
}

func TestModelHTTP500FailsTheTurnReadably(t *testing.T) {
	r := newRig(t, rigOptions{})
	done, _ := r.Turn("http 500 please")
	if done.Status != model.StatusFailed || done.TurnError == nil || done.TurnError.Code == "" || done.TurnError.Message == "" {
		t.Fatalf("turn ended %s %+v, want failed with a code and message", done.Status, done.TurnError)
	}
	if e := r.One(model.KindError, done.TurnID); e.ErrorMessage() == "" {
		t.Error("the error item has no message")
	}
	// The session goes on.
	next, _ := r.Turn("say: still here")
	agenttest.WantCompleted(t, next)
}

func TestRetryNoticeIsAWarning(t *testing.T) {
	r := newRig(t, rigOptions{fake: codextest.FakeOptions{FailAttempts: 1}, home: codextest.HomeOptions{StreamRetries: 2}})
	done, seen := r.Turn("retry please")
	agenttest.WantCompleted(t, done)
	var w *model.Warning
	for _, ev := range seen {
		if ev.Method == model.MethodWarning && ev.Warning.WillRetry {
			w = ev.Warning
		}
	}
	if w == nil || !w.Retryable || w.Attempt != 1 || w.Message == "" {
		t.Fatalf("retry warning = %+v", w)
	}
	if len(r.Items(model.KindError, done.TurnID)) != 0 {
		t.Error("a retried request left an error item in the history")
	}
	if r.One(model.KindAgentMessage, done.TurnID).Text() != codextest.PlainAnswer {
		t.Error("no answer after the retry")
	}
}

func TestLongCodexSessionPagesOlderHistory(t *testing.T) {
	r := newRig(t, rigOptions{})
	done, _ := r.Turn("many: 520")
	agenttest.WantCompleted(t, done)
	if n := len(r.Items(model.KindAgentMessage, done.TurnID)); n != 520 {
		t.Fatalf("%d answer items, want 520", n)
	}
	// A late client opens the newest 100 items and pages back to the start.
	late := hosttest.Dial(t, r.Host)
	sub, err := late.Subscribe(r.SessionID, "", "", 100)
	if err != nil {
		t.Fatal(err)
	}
	st := model.NewState(r.SessionID)
	if _, err := st.LoadSnapshot(r.SessionID, sub.Epoch, *sub.Snapshot); err != nil {
		t.Fatal(err)
	}
	hasOlder, pages := sub.Snapshot.HasOlder, 0
	for hasOlder {
		var p struct {
			Events []struct {
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			} `json:"events"`
			HasOlder bool `json:"hasOlder"`
		}
		late.MustCall(t, "view/page", map[string]any{"sessionId": r.SessionID, "epoch": sub.Epoch, "direction": "before",
			"cursor": model.FormatCursor(r.SessionID, st.OldestPosition()), "limit": 150}, &p)
		var evs []*model.Event
		for _, e := range p.Events {
			ev, err := model.DecodeNotification(e.Method, e.Params)
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, ev)
		}
		if err := st.ApplyOlder(evs, p.HasOlder); err != nil {
			t.Fatal(err)
		}
		hasOlder, pages = p.HasOlder, pages+1
	}
	if pages < 3 {
		t.Errorf("%d before pages for 520+ items, want several", pages)
	}
	if got, want := string(st.Encode()), string(r.State.Encode()); got != want {
		t.Fatalf("paged transcript differs from the live one (%d vs %d items)", st.Len(), r.State.Len())
	}
	msgs := 0
	for i, it := range st.Items() {
		if it.Kind == model.KindAgentMessage {
			msgs++
			if want := fmt.Sprintf("message %d of 520", msgs); it.Text() != want {
				t.Fatalf("item %d says %q, want %q", i, it.Text(), want)
			}
		}
	}
}

func TestDisconnectedAttemptIsStoppedNotDuplicated(t *testing.T) {
	r := newRig(t, rigOptions{fake: codextest.FakeOptions{FailAttempts: 1}, home: codextest.HomeOptions{StreamRetries: 2}})
	done, _ := r.Turn("disconnect please")
	agenttest.WantCompleted(t, done)
	var completed, stopped int
	for _, it := range r.Items(model.KindAgentMessage, done.TurnID) {
		switch it.Status {
		case model.StatusCompleted:
			completed++
			if it.Text() != codextest.PlainAnswer {
				t.Errorf("completed answer %q", it.Text())
			}
		case model.StatusStopped:
			stopped++
		default:
			t.Errorf("answer item ended %s", it.Status)
		}
	}
	if completed != 1 || stopped != 1 {
		t.Errorf("%d completed and %d stopped answers, want the retried one stopped and one complete answer", completed, stopped)
	}
}
