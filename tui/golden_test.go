package tui

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

// goldenScene is one scripted screen for the golden files.
type goldenScene struct {
	name   string
	height int
	build  func(f *fakeSource)
	// marker is a distinctive text the first frame shows; the test waits
	// for it in the output stream before quitting.
	marker string
}

var goldenScenes = []goldenScene{
	{name: "kinds", height: 100, build: kindsSession, marker: "Approval needed"},
	{name: "reconnecting", height: 16, build: func(f *fakeSource) {
		longSession(f, 1, 4)
		f.edit(func(sn *sync.Picture, _ *model.State) {
			sn.Freshness = sync.Freshness{State: sync.Reconnecting, NextAttempt: fixedNow.Add(4 * time.Second), Attempt: 3, Err: "dial tcp: connection refused"}
		})
	}, marker: "Reconnecting to host"},
	{name: "updating", height: 16, build: func(f *fakeSource) {
		longSession(f, 1, 4)
		f.edit(func(sn *sync.Picture, _ *model.State) { sn.Freshness = sync.Freshness{State: sync.Updating} })
	}, marker: "Updating messages"},
	{name: "syncerror", height: 16, build: func(f *fakeSource) {
		longSession(f, 1, 4)
		f.edit(func(sn *sync.Picture, _ *model.State) {
			sn.Freshness = sync.Freshness{State: sync.Error, Err: "host refused the token"}
			sn.Errors = []string{"upstream_frame_error in item/delta: unknown delta shape"}
		})
	}, marker: "Sync error"},
	{name: "hostlost", height: 24, build: func(f *fakeSource) {
		f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
		f.item(completed, obj{"itemId": "u1", "kind": "userMessage", "status": "completed", "text": "count to three"})
		f.item(started, obj{"itemId": "a1", "kind": "agentMessage", "text": "one, two"})
		f.edit(func(sn *sync.Picture, st *model.State) {
			st.MarkTerminalUnknown()
			sn.Durability = "ephemeral"
			sn.Freshness = sync.Freshness{State: sync.Reconnecting, Attempt: 1}
		})
	}, marker: "Reconnecting to host"},
	{name: "olderhistory", height: 16, build: func(f *fakeSource) {
		f.seq, f.prev = 100, 100
		f.edit(func(sn *sync.Picture, st *model.State) {
			st.HasOlder = true
			st.Cursor, st.DurableCursor = 100, 100
			sn.HistoryLoading = true
		})
		longSession(f, 9, 1)
	}, marker: "loading older"},
	{name: "startwindow", height: 20, build: func(f *fakeSource) {
		f.seq, f.prev = 100, 100
		f.edit(func(sn *sync.Picture, st *model.State) { st.HasOlder = true; st.Cursor, st.DurableCursor = 100, 100 })
		longSession(f, 51, 1)
		startWindow(f, 1, true)
	}, marker: "more messages here"},
}

// TestGolden renders every scene at two widths in both themes through a
// real Bubble Tea program (teatest) and compares the final model's view
// with golden files: the plain text (layout) and the styled text (colour).
// Run with -update to rewrite them.
func TestGolden(t *testing.T) {
	for _, sc := range goldenScenes {
		for _, w := range []int{60, 100} {
			for _, theme := range []string{"dark", "light"} {
				name := sc.name + "/w" + strconv.Itoa(w) + "-" + theme
				t.Run(name, func(t *testing.T) {
					content := runGolden(t, sc, w, theme)
					if theme == "dark" {
						t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, trimRight(ansi.Strip(content))) })
					}
					t.Run("styled", func(t *testing.T) { golden.RequireEqual(t, quoteLines(content)) })
				})
			}
		}
	}
}

func runGolden(t *testing.T, sc goldenScene, w int, theme string) string {
	t.Helper()
	f := newFake(t)
	sc.build(f)
	m, err := New(Options{Source: f, Theme: theme, Host: "127.0.0.1:7777", SessionID: "s1",
		Now: func() time.Time { return fixedNow }, Still: true})
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, sc.height))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(sc.marker)) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	_, _ = io.ReadAll(tm.FinalOutput(t))
	// The quit notice is transient; the golden shows the screen before it.
	fm.clearNotice()
	fm.quitArmed = false
	fm.refresh()
	return fm.View().Content
}

// trimRight drops trailing spaces so the plain goldens stay readable.
func trimRight(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// quoteLines makes escape sequences visible, one screen line per line.
func quoteLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		q := strconv.Quote(l)
		lines[i] = q[1 : len(q)-1]
	}
	return strings.Join(lines, "\n") + "\n"
}

// screenScene is a golden screen at a fixed terminal size, reached by
// pressing keys once the first frame shows marker.
type screenScene struct {
	name          string
	width, height int
	build         func(f *fakeSource)
	marker        string
	keys          []string
	after         string // shown once the keys took effect
}

var screenScenes = []screenScene{
	{name: "help/80x24", width: 80, height: 24, build: func(f *fakeSource) { longSession(f, 1, 3) }, marker: "answer 3", keys: []string{"?"}, after: "Keys ·"},
	{name: "help/60x20", width: 60, height: 20, build: func(f *fakeSource) { longSession(f, 1, 3) }, marker: "answer 3", keys: []string{"?"}, after: "Keys ·"},
	{name: "help-scrolled/60x20", width: 60, height: 20, build: func(f *fakeSource) { longSession(f, 1, 3) }, marker: "answer 3", keys: []string{"?", "end"}, after: "↑ more"},
	{name: "search/80x24", width: 80, height: 24, build: func(f *fakeSource) { longSession(f, 1, 12) }, marker: "answer 12",
		keys: []string{"ctrl+f", "q", "u", "e", "s", "t", "i", "o", "n", " ", "1", "enter", "N"}, after: "newer"},
	{name: "question/80x24", width: 80, height: 24, build: questionSession, marker: "your own answer"},
	{name: "question/120x40", width: 120, height: 40, build: questionSession, marker: "your own answer"},
	{name: "question-answered/80x24", width: 80, height: 24, build: answeredQuestionSession, marker: "answered"},
	{name: "question-answered/120x40", width: 120, height: 40, build: answeredQuestionSession, marker: "answered"},
	{name: "plan/80x24", width: 80, height: 24, build: planSession, marker: "3 more"},
	{name: "plan/120x40", width: 120, height: 40, build: planSession, marker: "Fix the parser"},
	{name: "plan-collapsed/80x24", width: 80, height: 24, build: planSession, marker: "3 more", keys: []string{"alt+p"}, after: "Adding a regression test"},
	{name: "plan-approval/80x24", width: 80, height: 24, build: planApprovalSession, marker: "Approval needed"},
	{name: "plan-ended/80x24", width: 80, height: 24, build: endedPlanSession, marker: "stopped"},
	{name: "plan-ended/120x40", width: 120, height: 40, build: endedPlanSession, marker: "stopped"},
	{name: "diagnostics/80x24", width: 80, height: 24, build: diagnosticsSession, marker: "answer 2", keys: []string{"f2"}, after: "Diagnostics"},
	{name: "diagnostics/60x20", width: 60, height: 20, build: diagnosticsSession, marker: "answer 2", keys: []string{"f2"}, after: "Diagnostics"},
}

// diagnosticsSession has two model-request warnings (their turn still
// running), client errors and a connection error.
// planFields is a plan of five steps, two done and the third in
// progress, revised three times.
func planFields(status string) obj {
	return obj{"itemId": "p1", "kind": "plan", "status": status, "revision": 3,
		"explanation": "The cause is an off-by-one in the tokenizer: a regression test comes first.",
		"steps": []any{
			obj{"text": "Read the failing test", "status": "completed"},
			obj{"text": "Find the cause", "status": "completed"},
			obj{"text": "Add a regression test", "status": "inProgress", "activeText": "Adding a regression test"},
			obj{"text": "Fix the parser", "status": "pending"},
			obj{"text": "Run the tests", "status": "pending"},
		}}
}

// planSession is a running turn with a plan, and an answer streaming
// after it.
func planSession(f *fakeSource) {
	longSession(f, 1, 2)
	f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
	f.item(completed, obj{"itemId": "u9", "kind": "userMessage", "status": "completed", "text": "fix the tokenizer bug, with a plan"})
	f.item(started, planFields(model.StatusInProgress))
	f.item(started, obj{"itemId": "a9", "kind": "agentMessage", "text": "I found the cause: the tokenizer stops one byte early. Writing the test now."})
}

// planApprovalSession is planSession with a command waiting for
// approval: the plan keeps one line beside the approval bar.
func planApprovalSession(f *fakeSource) {
	planSession(f)
	f.item(started, obj{"itemId": "tool9", "kind": "toolCall", "status": "waitingUser", "toolName": "bash",
		"input": obj{"command": "go test ./tokenizer/..."}})
	f.frame(model.MethodApprovalRequested, obj{"approvalId": "ap9", "turnId": "t1", "itemId": "tool9",
		"summary": "Run `go test ./tokenizer/...`", "options": []string{"approve", "deny"}})
}

// endedPlanSession holds a plan whose turn was interrupted: the card
// stays in the transcript, nothing is pinned.
func endedPlanSession(f *fakeSource) {
	longSession(f, 1, 2)
	f.item(completed, obj{"itemId": "u9", "kind": "userMessage", "status": "completed", "text": "fix the tokenizer bug, with a plan"})
	p := planFields(model.StatusStopped)
	p["revision"] = 4
	f.item(completed, p)
}

// questionFields is a question with four options, as Claude Code asks.
func questionFields(status string) obj {
	return obj{"itemId": "q1", "kind": "question", "status": status, "header": "Database",
		"text": "Which database should the service use? It keeps a few thousand rows and one process writes them.",
		"options": []any{
			obj{"label": "Postgres", "description": "a server, for many writers"},
			obj{"label": "SQLite (Recommended)", "description": "a file, for one writer"},
			obj{"label": "Badger", "description": "an embedded key-value store"},
			obj{"label": "Files", "description": "one JSON file per record"},
		}, "multiple": false, "freeText": true}
}

// questionSession waits on a question in its running turn.
func questionSession(f *fakeSource) {
	longSession(f, 1, 2)
	f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
	f.item(started, questionFields(model.StatusWaitingUser))
}

// answeredQuestionSession holds a question answered with a pick and text.
func answeredQuestionSession(f *fakeSource) {
	longSession(f, 1, 2)
	q := questionFields(model.StatusAnswered)
	q["revision"] = 2
	q["answer"] = obj{"selected": []any{"SQLite (Recommended)"}, "text": "keep it in one file"}
	f.item(completed, q)
}

func diagnosticsSession(f *fakeSource) {
	longSession(f, 1, 2)
	f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
	f.frame(model.MethodWarning, obj{"requestKind": "model", "code": "rate_limited", "message": "rate limited",
		"retryable": true, "attempt": 1, "maxAttempts": 5, "willRetry": true, "turnId": "t1"})
	f.frame(model.MethodWarning, obj{"requestKind": "model", "code": "overloaded", "message": "the model is overloaded; the request will be retried with a longer timeout and a smaller context window",
		"retryable": true, "attempt": 2, "maxAttempts": 5, "willRetry": true, "turnId": "t1"})
	f.edit(func(sn *sync.Picture, _ *model.State) {
		sn.Errors = []string{"upstream_frame_error: malformed frame: not valid JSON",
			"unknown_item in item/delta (seq 260) item ghost field text: delta for an item never seen",
			"approval/respond: the approval was already answered"}
		sn.ErrorCount = 3
		sn.Freshness = sync.Freshness{State: sync.Error, Err: "the host refused the token: no token was sent; give one with --token-file, $LOOKOUT_TOKEN or lookout auth login", Reason: sync.ReasonAuth}
	})
}

// TestGoldenScreens renders whole screens at the sizes the issue names
// (help and diagnostics at 80x24 and 60x20) through a real program.
func TestGoldenScreens(t *testing.T) {
	for _, sc := range screenScenes {
		t.Run(sc.name, func(t *testing.T) {
			content := runGoldenScreen(t, sc)
			t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, trimRight(ansi.Strip(content))) })
			t.Run("styled", func(t *testing.T) { golden.RequireEqual(t, quoteLines(content)) })
		})
	}
}

func runGoldenScreen(t *testing.T, sc screenScene) string {
	t.Helper()
	f := newFake(t)
	sc.build(f)
	m, err := New(Options{Source: f, Theme: "dark", Host: "127.0.0.1:7777", SessionID: "s1",
		Now: func() time.Time { return fixedNow }, Still: true})
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(sc.width, sc.height))
	wait := func(marker string) {
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(marker)) },
			teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	}
	wait(sc.marker)
	for _, k := range sc.keys {
		tm.Send(keyMsg(k))
	}
	wait(sc.after)
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	_, _ = io.ReadAll(tm.FinalOutput(t))
	fm.clearNotice()
	fm.quitArmed = false
	fm.refresh()
	return fm.View().Content
}
