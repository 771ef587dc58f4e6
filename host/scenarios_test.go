package host_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// runTurn submits prompt and folds everything up to its turn/completed.
func runTurn(t *testing.T, c *hosttest.Client, sid string, st *model.State, cid, prompt string) (*model.Event, []*model.Event) {
	t.Helper()
	_, turn, err := c.Submit(sid, cid, prompt)
	if err != nil {
		t.Fatal(err)
	}
	ev, seen, err := c.WaitEvent(st, hosttest.TurnCompleted(turn))
	if err != nil {
		t.Fatal(err)
	}
	return ev, seen
}

func TestDemoScenarios(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)

	t.Run("big output is cut at the field bound", func(t *testing.T) {
		_, seen := runTurn(t, c, sid, st, "big", "big output")
		tools := itemsOfKind(st, model.KindToolCall)
		tool := tools[len(tools)-1]
		if len(tool.Output()) != host.FieldBound || !tool.Truncated("output") || !utf8.ValidString(tool.Output()) {
			t.Fatalf("output %d bytes, truncated %v", len(tool.Output()), tool.TruncatedFields())
		}
		// The deltas concatenate to the final value and stop at saturation.
		var sum strings.Builder
		for _, ev := range seen {
			if ev.Method == model.MethodItemDelta && ev.ItemID == tool.ID && ev.Field == "output" {
				sum.WriteString(ev.Delta)
			}
		}
		if sum.String() != tool.Output() {
			t.Fatalf("deltas sum to %d bytes, final output %d", sum.Len(), len(tool.Output()))
		}
	})
	t.Run("unknown kind", func(t *testing.T) {
		runTurn(t, c, sid, st, "unk", "show an unknown kind")
		its := itemsOfKind(st, "diffPreview")
		if len(its) != 1 || its[0].Field("hunks") == nil || its[0].Status != model.StatusCompleted {
			t.Fatalf("diffPreview = %v", its)
		}
	})
	t.Run("compaction", func(t *testing.T) {
		runTurn(t, c, sid, st, "cmp", "compact please")
		its := itemsOfKind(st, model.KindContextCompaction)
		if len(its) != 1 || its[0].Status != model.StatusCompleted {
			t.Fatalf("compaction = %v", its)
		}
	})
	t.Run("warnings are ephemeral", func(t *testing.T) {
		_, seen := runTurn(t, c, sid, st, "warn", "warning ahead")
		var attempts []int
		for _, ev := range seen {
			if ev.Method == model.MethodWarning {
				if ev.Durable || !ev.Warning.WillRetry || ev.Warning.MaxAttempts != 3 {
					t.Fatalf("warning = %+v", ev.Warning)
				}
				attempts = append(attempts, ev.Warning.Attempt)
			}
		}
		if len(attempts) != 2 || attempts[0] != 1 || attempts[1] != 2 {
			t.Fatalf("attempts %v", attempts)
		}
	})
	t.Run("failed turn", func(t *testing.T) {
		ev, _ := runTurn(t, c, sid, st, "ft", "fail turn")
		if ev.Status != model.StatusFailed || ev.TurnError == nil || ev.TurnError.Code != "modelError" {
			t.Fatalf("turn/completed = %+v", ev)
		}
		errs := itemsOfKind(st, model.KindError)
		if len(errs) != 1 || errs[0].ErrorMessage() == "" {
			t.Fatalf("error items %v", errs)
		}
		for _, it := range st.Items() {
			if it.TurnID == ev.TurnID && it.Kind == model.KindAgentMessage && it.Status != model.StatusFailed {
				t.Fatalf("partial answer ended %s", it.Status)
			}
		}
	})
	t.Run("failing tool", func(t *testing.T) {
		runTurn(t, c, sid, st, "ftool", "fail tool")
		tools := itemsOfKind(st, model.KindToolCall)
		tool := tools[len(tools)-1]
		if code, _ := tool.ExitCode(); tool.Status != model.StatusFailed || code != 1 {
			t.Fatalf("tool = %s", tool.AppendJSON(nil))
		}
	})
	t.Run("bad tool input", func(t *testing.T) {
		runTurn(t, c, sid, st, "bti", "bad tool input")
		tools := itemsOfKind(st, model.KindToolCall)
		tool := tools[len(tools)-1]
		if tool.Status != model.StatusFailed || tool.Field("input") != nil {
			t.Fatalf("tool = %s", tool.AppendJSON(nil))
		}
	})
	t.Run("long answer", func(t *testing.T) {
		runTurn(t, c, sid, st, "long", "a long one")
		msgs := itemsOfKind(st, model.KindAgentMessage)
		text := msgs[len(msgs)-1].Text()
		if n := strings.Count(text, "\n"); n < 2000 || msgs[len(msgs)-1].Truncated("text") {
			t.Fatalf("%d lines, truncated %v", n, msgs[len(msgs)-1].TruncatedFields())
		}
	})
	if d := st.TakeDiagnostics(); len(d) > 0 {
		t.Fatalf("fold diagnostics: %+v", d)
	}
	snap, _ := snapshotState(t, hosttest.Dial(t, h), sid)
	if string(snap.Encode()) != string(st.Encode()) {
		t.Fatal("live fold != snapshot")
	}
	if title := st.View().Title(); title != "test" {
		t.Fatalf("title %q", title)
	}
	// In a session of its own: a 1 MiB item fills a snapshot by itself.
	t.Run("big answer is cut at the text bound", func(t *testing.T) {
		sid, _, st := newSession(t, c)
		runTurn(t, c, sid, st, "bigA", "big answer")
		msgs := itemsOfKind(st, model.KindAgentMessage)
		msg := msgs[len(msgs)-1]
		if len(msg.Text()) != host.TextBound || !msg.Truncated("text") || !strings.HasPrefix(msg.Text(), "## A big answer") {
			t.Fatalf("answer %d bytes, truncated %v", len(msg.Text()), msg.TruncatedFields())
		}
	})
}

func TestDemoSessionShowsEveryKind(t *testing.T) {
	dir := t.TempDir()
	h := hosttest.Start(t, host.Options{DemoSession: true, DataDir: dir})
	sid := h.DefaultSessionID()
	if sid == "" {
		t.Fatal("no demo session")
	}
	c := hosttest.Dial(t, h)
	st, _ := snapshotState(t, c, sid)
	for _, k := range []string{"userMessage", "reasoning", "agentMessage", "toolCall", "contextCompaction", "error", "diffPreview"} {
		if len(itemsOfKind(st, k)) == 0 {
			t.Errorf("demo history has no %s", k)
		}
	}
	// The first screen greets: the history ends with the welcome answer,
	// not the failed turn's error.
	items := st.Items()
	if last := items[len(items)-1]; last.Kind != model.KindAgentMessage || !strings.Contains(last.Text(), "Welcome to Lookout") ||
		last.Status != model.StatusCompleted {
		t.Fatalf("the demo history ends with %s %s %q", last.Kind, last.Status, last.Text())
	}
	if st.View().Title() == "" || !st.Idle() || len(st.View().Approvals) != 0 {
		t.Fatalf("title %q idle %v approvals %d", st.View().Title(), st.Idle(), len(st.View().Approvals))
	}
	for _, it := range st.Items() {
		if it.IsOpen() {
			t.Fatalf("open item in history: %s", it.AppendJSON(nil))
		}
	}
	// A restart finds the same demo session and creates no other.
	h.Close()
	h2 := hosttest.Start(t, host.Options{DemoSession: true, DataDir: dir})
	if h2.DefaultSessionID() != sid {
		t.Fatalf("demo session %s after restart, want %s", h2.DefaultSessionID(), sid)
	}
	var list struct {
		Sessions []struct{ SessionID, Title, Status, UpdatedAt string }
	}
	hosttest.Dial(t, h2).MustCall(t, "session/list", nil, &list)
	if len(list.Sessions) != 1 || list.Sessions[0].SessionID != sid || list.Sessions[0].Title == "" || list.Sessions[0].Status != "idle" {
		t.Fatalf("list = %+v", list)
	}
}

func TestDeltaOptOut(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	c := hosttest.Dial(t, h)
	c.MustCall(t, "initialize", map[string]any{"clientInfo": map[string]any{"name": "t"}, "capabilities": map[string]any{"deltas": false}}, nil)
	sid, _, st := newSession(t, c)
	_, seen := runTurn(t, c, sid, st, "x", "warning, compact and big output")
	for _, ev := range seen {
		if ev.Method == model.MethodItemDelta {
			t.Fatal("a delta reached a connection that opted out")
		}
	}
	snap, _ := snapshotState(t, hosttest.Dial(t, h), sid)
	if string(snap.Encode()) != string(st.Encode()) {
		t.Fatalf("fold without deltas != snapshot\n%s\n%s", st.Encode(), snap.Encode())
	}
}
