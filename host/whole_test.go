package host_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// clientLimits are the sync client's default bounds (sync.Options), so
// that a fold here cuts what Lookout's client would.
var clientLimits = model.Limits{FieldBytes: 1 << 20, ItemBytes: 8 << 20}

// A 200 KB answer streamed in 10-byte deltas arrives whole: in the live
// fold (bounded as the client's), in a snapshot, in view/page, and after
// the host restarts on its journal. The completion restates what the
// host folded from the deltas, so a cut in the delta path would show in
// each (a slow reader may be shed some deltas themselves).
func TestWholeAnswerStreamsThroughEveryPath(t *testing.T) {
	answer := hosttest.LongAnswer(200_555)
	a := hosttest.ScriptAgent{"answer": func(_ context.Context, t *host.Turn) error {
		return hosttest.StreamItem(t, model.KindAgentMessage, map[string]any{"text": ""}, "text", answer, 10)
	}}
	data := t.TempDir()
	h := hosttest.Start(t, host.Options{DataDir: data, AgentImpl: a})
	c := hosttest.Dial(t, h)
	var init struct {
		Features map[string]any `json:"features"`
	}
	c.MustCall(t, "initialize", map[string]any{"clientInfo": map[string]any{"name": "t", "version": "1"}}, &init)
	if init.Features["fieldBound"] != float64(host.FieldBound) || init.Features["textBound"] != float64(host.TextBound) {
		t.Fatalf("features fieldBound %v, textBound %v; want %d, %d", init.Features["fieldBound"], init.Features["textBound"], host.FieldBound, host.TextBound)
	}
	sid, epoch, st := newSession(t, c)
	st.SetLimits(clientLimits)
	_, seen := runTurn(t, c, sid, st, "a", "answer")
	deltas := 0
	for _, ev := range seen {
		if ev.Method == model.MethodItemDelta {
			deltas++
		}
	}
	if deltas == 0 {
		t.Fatal("no delta: the answer did not stream")
	}
	wantWhole(t, "the live fold", st, answer)
	snap, _ := snapshotState(t, hosttest.Dial(t, h), sid)
	wantWhole(t, "a snapshot", snap, answer)
	wantWhole(t, "view/page", foldAll(t, sid, pageAll(t, c, sid, epoch, 1000)), answer)

	h.Close()
	h = hosttest.Start(t, host.Options{DataDir: data, AgentImpl: a})
	c = hosttest.Dial(t, h)
	snap, sub := snapshotState(t, c, sid)
	wantWhole(t, "a snapshot after a restart", snap, answer)
	wantWhole(t, "view/page after a restart", foldAll(t, sid, pageAll(t, c, sid, sub.Epoch, 1000)), answer)
}

// An answer past TextBound is cut there, says so in truncated at once
// (an item/updated before the completion), and no client cuts it again.
func TestAnswerPastTheTextBoundIsCutAndSaysSo(t *testing.T) {
	answer := hosttest.LongAnswer(host.TextBound + 100<<10)
	a := hosttest.ScriptAgent{"answer": func(_ context.Context, t *host.Turn) error {
		return hosttest.StreamItem(t, model.KindAgentMessage, map[string]any{"text": ""}, "text", answer, 1000)
	}}
	h := hosttest.Start(t, host.Options{AgentImpl: a})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	st.SetLimits(clientLimits)
	_, seen := runTurn(t, c, sid, st, "a", "answer")
	msg := itemsOfKind(st, model.KindAgentMessage)[0]
	if msg.Text() != answer[:host.TextBound] || !msg.Truncated("text") || msg.Cut != nil {
		t.Fatalf("text %d bytes, truncated %v, client cut %+v; want the first %d bytes, truncated by the host alone", len(msg.Text()), msg.TruncatedFields(), msg.Cut, host.TextBound)
	}
	said := false
	for _, ev := range seen {
		if ev.Method == model.MethodItemUpdated && ev.Item.Truncated("text") {
			said = true
		}
		if ev.Method == model.MethodItemDelta && said {
			t.Fatal("a delta after the text was cut")
		}
	}
	if !said {
		t.Fatal("no item/updated said the text was cut")
	}
}

// Tool output is still sliced at FieldBound (seed 003), and so is a
// reasoning item's other text; its summary parts are whole.
func TestToolOutputIsStillSliced(t *testing.T) {
	output := strings.Repeat("line of tool output\n", 5000) // 100,000 bytes
	part := hosttest.LongAnswer(200_000)
	a := hosttest.ScriptAgent{
		"tool": func(_ context.Context, t *host.Turn) error {
			return hosttest.StreamItem(t, model.KindToolCall, map[string]any{"toolName": "shell"}, "output", output, 1000)
		},
		"think": func(_ context.Context, t *host.Turn) error {
			return hosttest.StreamItem(t, model.KindReasoning, map[string]any{"summary": []string{"**Planning**"}, "text": output}, "summary.1", part, 1000)
		},
	}
	h := hosttest.Start(t, host.Options{AgentImpl: a})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	st.SetLimits(clientLimits)
	runTurn(t, c, sid, st, "t", "tool")
	tool := itemsOfKind(st, model.KindToolCall)[0]
	if tool.Output() != output[:host.FieldBound] || !tool.Truncated("output") {
		t.Fatalf("output %d bytes, truncated %v; want the first %d, truncated", len(tool.Output()), tool.TruncatedFields(), host.FieldBound)
	}
	runTurn(t, c, sid, st, "r", "think")
	r := itemsOfKind(st, model.KindReasoning)[0]
	if got := r.Summary(); len(got) != 2 || got[1] != part || r.Truncated("summary.1") {
		t.Fatalf("summary %d parts, truncated %v; want the 200 KB part whole", len(got), r.TruncatedFields())
	}
	if len(r.String("text")) != host.FieldBound || !r.Truncated("text") {
		t.Fatalf("reasoning text %d bytes, truncated %v; want it sliced", len(r.String("text")), r.TruncatedFields())
	}
}

// Text of control characters, six bytes each as JSON, is cut where its
// JSON reaches the host's wire bound (3 MiB), so that every frame
// carrying the item stays under MaxFrameBytes: streamed, recorded whole,
// and in a snapshot. The summary parts of one reasoning item share it.
func TestWholeTextFitsAFrame(t *testing.T) {
	controls := strings.Repeat("\x01", host.TextBound)
	a := hosttest.ScriptAgent{
		"answer": func(_ context.Context, t *host.Turn) error {
			return hosttest.StreamItem(t, model.KindAgentMessage, map[string]any{"text": ""}, "text", controls, 4096)
		},
		"record": func(_ context.Context, t *host.Turn) error {
			_, err := t.RecordItem(model.KindAgentMessage, model.StatusCompleted, map[string]any{"text": controls})
			return err
		},
		"think": func(_ context.Context, t *host.Turn) error {
			id, err := t.StartItem(model.KindReasoning, model.StatusInProgress, map[string]any{"summary": []string{}})
			if err != nil {
				return err
			}
			for _, field := range []string{"summary.0", "summary.1"} {
				for range 100 {
					if err := t.Delta(id, field, controls[:4000]); err != nil {
						return err
					}
				}
			}
			return t.CompleteItem(id, model.StatusCompleted, nil)
		},
	}
	h := hosttest.Start(t, host.Options{AgentImpl: a})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	for _, prompt := range []string{"answer", "record"} {
		_, seen := runTurn(t, c, sid, st, prompt, prompt)
		wantFramesFit(t, prompt, seen)
		msgs := itemsOfKind(st, model.KindAgentMessage)
		msg := msgs[len(msgs)-1]
		if n := len(msg.Text()); !msg.Truncated("text") || n > host.TextBound/2 || n < host.TextBound/2-8 {
			t.Fatalf("%s: text %d bytes, truncated %v; want it cut just under %d (3 MiB of JSON)", prompt, n, msg.TruncatedFields(), host.TextBound/2)
		}
	}
	_, seen := runTurn(t, c, sid, st, "think", "think")
	wantFramesFit(t, "think", seen)
	r := itemsOfKind(st, model.KindReasoning)[0]
	if parts := r.Summary(); len(parts) != 2 || len(parts[0]) != 400_000 || r.Truncated("summary.0") ||
		!r.Truncated("summary.1") || len(parts[1]) >= 400_000 {
		t.Fatalf("summary parts %d, truncated %v; want the first whole (2.4 MB of JSON), the second cut", len(parts), r.TruncatedFields())
	}
	res, rerr, err := hosttest.Dial(t, h).Call("session/subscribe", map[string]any{"sessionId": sid})
	if err != nil || rerr != nil {
		t.Fatal(err, rerr)
	}
	if len(res) >= host.MaxFrameBytes-1024 {
		t.Fatalf("the snapshot takes %d bytes, a frame holds %d", len(res), host.MaxFrameBytes)
	}
}

// wantFramesFit fails t for an event whose params alone fill a frame.
func wantFramesFit(t *testing.T, what string, evs []*model.Event) {
	t.Helper()
	for _, ev := range evs {
		if len(ev.Params) >= host.MaxFrameBytes-1024 {
			t.Fatalf("%s: %s takes %d bytes, a frame holds %d", what, ev.Method, len(ev.Params), host.MaxFrameBytes)
		}
	}
}

// wantWhole fails t unless st holds one agent message, answer whole.
func wantWhole(t *testing.T, where string, st *model.State, answer string) {
	t.Helper()
	msgs := itemsOfKind(st, model.KindAgentMessage)
	if len(msgs) != 1 {
		t.Fatalf("%s: %d agent messages, want 1", where, len(msgs))
	}
	m := msgs[0]
	if m.Text() != answer || m.Truncated("text") || m.Cut != nil || m.Status != model.StatusCompleted {
		t.Fatalf("%s: text %d of %d bytes, truncated %v, cut %+v, %s", where, len(m.Text()), len(answer), m.TruncatedFields(), m.Cut, m.Status)
	}
}
