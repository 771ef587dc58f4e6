package codex_test

import (
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// The fake model answers with 200 KB of markdown in 10-character deltas;
// the real Codex app-server streams it to the bridge, and the host keeps
// it whole: in the client's fold, and after the host restarts, in the
// snapshot and in view/page. The bridge cuts nothing itself: its deltas
// and its completion go through host.Turn like every bridge's.
func TestLongAnswerArrivesWhole(t *testing.T) {
	text := hosttest.LongAnswer(200_555)
	r := newRig(t, rigOptions{fake: codextest.FakeOptions{LongText: text, LongChunk: 10}})
	done, seen := r.Turn("long answer please")
	agenttest.WantCompleted(t, done)
	deltas := 0
	for _, ev := range seen {
		if agenttest.IsTextDelta(ev) {
			deltas++
		}
	}
	if deltas == 0 {
		t.Fatal("no text delta: the answer did not stream")
	}
	wantWholeAnswer(t, "the client's fold", r.One(model.KindAgentMessage, done.TurnID), text)

	r.Host.Close()
	r.StartHost()
	r.Subscribe()
	wantWholeAnswer(t, "the snapshot after a restart", r.One(model.KindAgentMessage, done.TurnID), text)
	var p struct {
		Events []model.PageElement `json:"events"`
	}
	r.Client.MustCall(t, "view/page", map[string]any{"sessionId": r.SessionID, "epoch": r.State.Epoch,
		"direction": "after", "cursor": model.FormatCursor(r.SessionID, 0), "limit": 1000}, &p)
	paged := model.NewState(r.SessionID)
	for _, el := range p.Events {
		ev, err := model.DecodeNotification(el.Method, el.Params)
		if err != nil {
			t.Fatal(err)
		}
		if err := paged.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	var answer *model.Item
	for _, it := range paged.Items() {
		if it.Kind == model.KindAgentMessage && it.TurnID == done.TurnID {
			answer = it
		}
	}
	wantWholeAnswer(t, "view/page after a restart", answer, text)
}

func wantWholeAnswer(t *testing.T, where string, it *model.Item, text string) {
	t.Helper()
	if it == nil {
		t.Fatalf("%s: no answer", where)
	}
	if it.Text() != text || it.Truncated("text") || it.Status != model.StatusCompleted {
		t.Fatalf("%s: the answer is %d of %d bytes (whole: %v), truncated %v, %s", where, len(it.Text()), len(text), it.Text() == text, it.TruncatedFields(), it.Status)
	}
}
