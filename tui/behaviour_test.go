package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

func hasCall(f *fakeSource, c string) bool { return slices.Contains(f.Calls(), c) }

func countCalls(f *fakeSource, c string) int {
	n := 0
	for _, x := range f.Calls() {
		if x == c {
			n++
		}
	}
	return n
}

// Every screen line fits the terminal width exactly.
func checkWidths(t *testing.T, d *driver, w int) {
	t.Helper()
	for i, l := range strings.Split(d.m.View().Content, "\n") {
		if got := ansi.StringWidth(l); got > w {
			t.Fatalf("line %d is %d cells wide (terminal %d): %q", i, got, w, ansi.Strip(l))
		}
	}
}

func TestFollowModeStreamsAtBottom(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 30)
	d := newDriver(t, 60, 20, Options{Source: f})
	d.wantScreen("answer 30")
	d.noScreen("question 1\n")
	f.item(started, obj{"itemId": "live", "kind": "agentMessage", "text": ""})
	f.delta("live", "text", "streaming words")
	d.pull()
	d.wantScreen("streaming words")
	f.delta("live", "text", " and more")
	d.pull()
	d.wantScreen("streaming words and more")
	checkWidths(t, d, 60)
}

func TestScrollUpShowsNewBelowMarkerAndEndFollows(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 30)
	d := newDriver(t, 60, 20, Options{Source: f})
	d.keys("pgup")
	d.noScreen("answer 30")
	d.noScreen("new messages below")
	f.item(completed, obj{"itemId": "late", "kind": "agentMessage", "status": "completed", "text": "late news"})
	d.pull()
	d.wantScreen("new messages below")
	d.noScreen("late news")
	d.keys("pgdown", "pgdown", "pgdown")
	d.wantScreen("late news")
	d.noScreen("new messages below")
	// Following again: the next item shows without a key.
	f.item(completed, obj{"itemId": "later", "kind": "agentMessage", "status": "completed", "text": "even later"})
	d.pull()
	d.wantScreen("even later")
}

func TestHomeShowsBeginningOfSession(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 30)
	d := newDriver(t, 60, 20, Options{Source: f})
	d.keys("home")
	d.wantScreen("beginning of session")
	d.wantScreen("question 1")
	if hasCall(f, "loadOlder") {
		t.Fatal("LoadOlder called although the view has no older history")
	}
	d.keys("end")
	d.wantScreen("answer 30")
}

// When the client dropped the oldest items to stay within its memory
// bound (model.Limits), the top of the transcript is not the beginning of
// the session: it offers the dropped history, which pages back in.
func TestDroppedItemsAreNotTheBeginningOfSession(t *testing.T) {
	f := newFake(t)
	f.edit(func(_ *sync.Picture, st *model.State) { st.SetLimits(model.Limits{Items: 32}) })
	longSession(f, 1, 30)
	d := newDriver(t, 60, 20, Options{Source: f})
	if v := f.Current().View; !v.HasOlder || len(v.Items) > 32 {
		t.Fatalf("the fold holds %d items, hasOlder %v", len(v.Items), v.HasOlder)
	}
	for i := 0; i < 40 && !d.m.tr.showsTop(); i++ {
		d.keys("pgup")
	}
	d.wantScreen("older messages")
	d.noScreen("beginning of session")
	if !hasCall(f, "loadOlder") {
		t.Fatal("reaching the top did not ask for the dropped history")
	}
	// Home goes to the session's start: it asks for the start window.
	d.keys("home")
	if !hasCall(f, "loadStart") {
		t.Fatal("home did not ask for the start of the session")
	}
	d.keys("end")
	d.wantScreen("answer 30")
}

// olderSession holds exchanges 51..80 with older history (1..50) on the
// host, as a snapshot tail would.
func olderSession(t *testing.T) *fakeSource {
	f := newFake(t)
	f.seq, f.prev = 100, 100
	f.edit(func(sn *sync.Picture, st *model.State) { st.HasOlder = true; st.Cursor, st.DurableCursor = 100, 100 })
	longSession(f, 51, 30)
	return f
}

// olderPage folds exchanges [first, first+n) as a `before` page.
func olderPage(t *testing.T, f *fakeSource, first, n int, hasOlder bool) {
	evs := exchangeEvents(t, first, n)
	f.edit(func(sn *sync.Picture, st *model.State) {
		if err := st.ApplyOlder(evs, hasOlder); err != nil {
			t.Fatal(err)
		}
		sn.HistoryLoading = false
	})
}

// exchangeEvents are the item/completed events of exchanges [first,
// first+n) as history pages carry them: exchange i's question at position
// 2i-1, its answer at 2i.
func exchangeEvents(t testing.TB, first, n int) []*model.Event {
	var evs []*model.Event
	for i := first; i < first+n; i++ {
		for _, it := range []obj{
			{"itemId": fmt.Sprintf("u%05d", i), "kind": "userMessage", "text": fmt.Sprintf("question %d", i)},
			{"itemId": fmt.Sprintf("a%05d", i), "kind": "agentMessage", "text": fmt.Sprintf("answer %d", i)},
		} {
			it["status"], it["revision"], it["turnId"] = "completed", 1, "t0"
			it["position"] = int64(len(evs) + 1 + (first-1)*2)
			raw := fmt.Sprintf(`{"sessionId":"s1","viewCursor":"v:s1:%d","prevCursor":null,"item":%s}`, it["position"], mustJSON(t, it))
			ev, err := model.DecodeNotification(completed, []byte(raw))
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, ev)
		}
	}
	return evs
}

func TestReachingTopLoadsOlderOnceAndKeepsContentAnchored(t *testing.T) {
	f := olderSession(t)
	d := newDriver(t, 60, 20, Options{Source: f})
	if hasCall(f, "loadOlder") {
		t.Fatal("LoadOlder called while the content fills the screen and the top is not reached")
	}
	for i := 0; i < 40 && !hasCall(f, "loadOlder"); i++ {
		d.keys("pgup")
	}
	if n := countCalls(f, "loadOlder"); n != 1 {
		t.Fatalf("LoadOlder called %d times on reaching the top, want 1", n)
	}
	d.wantScreen("question 51")
	// More scrolling at the top while the page is in flight asks nothing more.
	f.edit(func(sn *sync.Picture, _ *model.State) { sn.HistoryLoading = true })
	d.pull()
	d.keys("pgup")
	d.wantScreen("loading older messages")
	if n := countCalls(f, "loadOlder"); n != 1 {
		t.Fatalf("LoadOlder called %d times, want 1", n)
	}
	line := d.lineOf("question 51")
	olderPage(t, f, 26, 25, true)
	d.pull()
	if got := d.lineOf("question 51"); got != line {
		t.Fatalf("question 51 moved from screen line %d to %d when older rows were prepended:\n%s", line, got, d.screen())
	}
	d.noScreen("loading older")
	if n := countCalls(f, "loadOlder"); n != 1 {
		t.Fatalf("LoadOlder called %d times after the page filled the screen above, want 1", n)
	}
	// Scrolling to the new top loads the next page; the last page ends
	// with the beginning of the session.
	for i := 0; i < 60 && countCalls(f, "loadOlder") < 2; i++ {
		d.keys("pgup")
	}
	if n := countCalls(f, "loadOlder"); n != 2 {
		t.Fatalf("LoadOlder called %d times, want 2", n)
	}
	olderPage(t, f, 1, 25, false)
	d.pull()
	d.keys("home")
	d.wantScreen("beginning of session")
	d.wantScreen("question 1")
	if n := countCalls(f, "loadOlder"); n != 2 {
		t.Fatalf("LoadOlder called %d times at the true start, want 2", n)
	}
}

func TestShortContentKeepsLoadingOlderUntilFilled(t *testing.T) {
	f := newFake(t)
	f.seq, f.prev = 100, 100
	f.edit(func(sn *sync.Picture, st *model.State) { st.HasOlder = true; st.Cursor, st.DurableCursor = 100, 100 })
	longSession(f, 50, 1)
	d := newDriver(t, 60, 30, Options{Source: f})
	if n := countCalls(f, "loadOlder"); n != 1 {
		t.Fatalf("LoadOlder called %d times for a short screen, want 1", n)
	}
	olderPage(t, f, 48, 2, true) // still short: ask again
	d.pull()
	if n := countCalls(f, "loadOlder"); n != 2 {
		t.Fatalf("LoadOlder called %d times, want 2", n)
	}
	olderPage(t, f, 30, 18, true) // fills the screen: stop
	d.pull()
	if n := countCalls(f, "loadOlder"); n != 2 {
		t.Fatalf("LoadOlder called %d times after the screen filled, want 2", n)
	}
	d.wantScreen("answer 50")
}

func TestComposerSendsAndPendingRowTurnsIntoUserMessage(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 3)
	d := newDriver(t, 70, 24, Options{Source: f})
	d.typeText("hello there")
	d.wantScreen("hello there")
	d.keys("enter")
	if !hasCall(f, "submit:hello there") {
		t.Fatalf("calls %v", f.Calls())
	}
	d.pull()
	d.wantScreen("sending…")
	// The composer is empty again (placeholder shows).
	d.wantScreen("Write a prompt")
	// The host starts the turn: the pending row becomes the user message.
	f.frame(model.MethodTurnStarted, obj{"turnId": "t9", "startedAt": "2026-01-01T00:00:00Z", "commandId": "c1"})
	f.item(completed, obj{"itemId": "um", "kind": "userMessage", "status": "completed", "commandId": "c1", "text": "hello there", "turnId": "t9"})
	d.pull()
	d.noScreen("sending…")
	if strings.Count(d.screen(), "hello there") != 1 {
		t.Fatalf("the prompt shows %d times:\n%s", strings.Count(d.screen(), "hello there"), d.screen())
	}
	d.wantScreen("running 1:05")
}

func TestNewlineKeysAndHistory(t *testing.T) {
	f := newFake(t)
	d := newDriver(t, 70, 24, Options{Source: f})
	d.typeText("one")
	d.keys("ctrl+j")
	d.typeText("two")
	d.keys("alt+enter")
	d.typeText("three")
	if got := d.m.comp.value(); got != "one\ntwo\nthree" {
		t.Fatalf("composer %q", got)
	}
	d.keys("enter")
	d.typeText("second")
	d.keys("enter")
	if !hasCall(f, "submit:one\ntwo\nthree") || !hasCall(f, "submit:second") {
		t.Fatalf("calls %v", f.Calls())
	}
	d.keys("up")
	if got := d.m.comp.value(); got != "second" {
		t.Fatalf("history up: %q", got)
	}
	d.keys("up")
	if got := d.m.comp.value(); got != "one\ntwo\nthree" {
		t.Fatalf("history up twice: %q", got)
	}
	d.keys("down", "down")
	if got := d.m.comp.value(); got != "" {
		t.Fatalf("history down past newest: %q", got)
	}
	// Whitespace-only prompts are not sent.
	d.typeText("   ")
	d.keys("enter")
	if n := len(f.Calls()); n != 2 {
		t.Fatalf("calls %v", f.Calls())
	}
}

func TestPasteGoesToComposer(t *testing.T) {
	f := newFake(t)
	d := newDriver(t, 70, 24, Options{Source: f})
	d.keys("tab") // transcript focus
	d.send(tea.PasteMsg{Content: "pasted\ntext"})
	if got := d.m.comp.value(); got != "pasted\ntext" {
		t.Fatalf("composer %q", got)
	}
	if d.m.focus != focusComposer {
		t.Fatal("paste did not focus the composer")
	}
}

func TestUnqueuedTextReturnsToComposerOnce(t *testing.T) {
	f := newFake(t)
	f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
	d := newDriver(t, 70, 24, Options{Source: f})
	d.typeText("later please")
	d.keys("enter")
	f.frame(model.MethodTurnQueued, obj{"turnId": "t2", "commandId": "c1", "text": "later please", "position": 0})
	d.pull()
	d.wantScreen("queued")
	d.keys("alt+u")
	if !hasCall(f, "unqueue:c1") {
		t.Fatalf("calls %v", f.Calls())
	}
	f.frame(model.MethodTurnUnqueued, obj{"turnId": "t2", "commandId": "c1", "reason": "user"})
	d.pull()
	if got := d.m.comp.value(); got != "later please" {
		t.Fatalf("composer %q", got)
	}
	d.wantScreen("back in the composer")
	d.m.comp.clear()
	d.pull()
	d.pull()
	if got := d.m.comp.value(); got != "" {
		t.Fatalf("the returned text came back twice: %q", got)
	}
}

func TestUnqueueSelectedPendingEntry(t *testing.T) {
	f := newFake(t)
	f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
	d := newDriver(t, 70, 30, Options{Source: f})
	for i, s := range []string{"first queued", "second queued"} {
		d.typeText(s)
		d.keys("enter")
		f.frame(model.MethodTurnQueued, obj{"turnId": fmt.Sprintf("q%d", i), "commandId": fmt.Sprintf("c%d", i+1), "text": s, "position": i})
	}
	d.pull()
	d.keys("tab") // selects the bottom row: the second entry
	d.keys("up")  // the first entry
	d.keys("u")
	if !hasCall(f, "unqueue:c1") {
		t.Fatalf("calls %v", f.Calls())
	}
}

func TestApprovalBarAndKeys(t *testing.T) {
	f := newFake(t)
	kindsSession(f)
	d := newDriver(t, 90, 40, Options{Source: f})
	d.wantScreen("Approval needed: bash")
	d.wantScreen("Run `rm -rf build/`")
	d.keys("alt+a")
	if !hasCall(f, "respond:ap1:approve") {
		t.Fatalf("calls %v", f.Calls())
	}
	d.keys("tab", "d", "enter")
	if !hasCall(f, "deny:ap1:") {
		t.Fatalf("calls %v", f.Calls())
	}
	f.frame(model.MethodApprovalResolved, obj{"approvalId": "ap1", "decision": "approve"})
	d.pull()
	d.noScreen("Approval needed")
	d.keys("a")
	d.wantScreen("no tool is waiting for approval")
}

func TestInterruptAndQuitKeys(t *testing.T) {
	f := newFake(t)
	f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
	d := newDriver(t, 70, 24, Options{Source: f})
	d.keys("esc")
	if countCalls(f, "interrupt") != 1 {
		t.Fatalf("esc: calls %v", f.Calls())
	}
	d.keys("ctrl+c")
	if countCalls(f, "interrupt") != 2 || d.qt {
		t.Fatalf("first ctrl+c: calls %v quit %v", f.Calls(), d.qt)
	}
	d.wantScreen("ctrl+c again quits")
	d.keys("ctrl+c")
	if !d.qt {
		t.Fatal("second ctrl+c did not quit")
	}
}

func TestCtrlCClearsDraftAndAnotherKeyDisarms(t *testing.T) {
	f := newFake(t)
	d := newDriver(t, 70, 24, Options{Source: f})
	d.typeText("draft")
	d.keys("ctrl+c")
	if d.m.comp.value() != "" || d.qt {
		t.Fatalf("ctrl+c: composer %q quit %v", d.m.comp.value(), d.qt)
	}
	d.typeText("x")
	d.keys("ctrl+c")
	if d.qt {
		t.Fatal("ctrl+c after another key quit at once")
	}
	d.keys("ctrl+c")
	if !d.qt {
		t.Fatal("ctrl+c twice did not quit")
	}
}

func TestQOutsideComposerQuits(t *testing.T) {
	f := newFake(t)
	d := newDriver(t, 70, 24, Options{Source: f})
	d.typeText("q")
	if d.qt || d.m.comp.value() != "q" {
		t.Fatal("q in the composer must type")
	}
	d.m.comp.clear()
	d.keys("tab", "q")
	if !d.qt {
		t.Fatal("q in the transcript did not quit")
	}
}

func TestBanners(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 5)
	d := newDriver(t, 80, 24, Options{Source: f})
	d.noScreen("Reconnecting")
	f.edit(func(sn *sync.Picture, _ *model.State) {
		sn.Freshness = sync.Freshness{State: sync.Reconnecting, NextAttempt: fixedNow.Add(2500 * time.Millisecond), Attempt: 2, Err: "connection refused"}
	})
	d.pull()
	d.wantScreen("Reconnecting to host · next attempt in 3s (attempt 2)")
	d.wantScreen("answer 5") // cached history stays readable
	f.edit(func(sn *sync.Picture, _ *model.State) { sn.Freshness = sync.Freshness{State: sync.Updating} })
	d.pull()
	d.wantScreen("Updating messages")
	d.noScreen("Reconnecting")
	f.edit(func(sn *sync.Picture, _ *model.State) {
		sn.Freshness = sync.Freshness{State: sync.Connecting}
		sn.CachePainted = true
	})
	d.pull()
	d.wantScreen("Connecting to host… · showing the cached copy")
	d.wantScreen("answer 5")
	f.edit(func(sn *sync.Picture, _ *model.State) { sn.CachePainted = false })
	f.edit(func(sn *sync.Picture, _ *model.State) {
		sn.Freshness = sync.Freshness{State: sync.Error, Err: "unknown session"}
		sn.Errors = []string{"upstream_frame_error: bad", "unknown_item x"}
	})
	d.pull()
	d.wantScreen("Sync error: unknown session · ctrl+r to retry")
	d.wantScreen("4 diagnostics") // connection refused, unknown session, 2 client errors
	d.keys("ctrl+r")
	if !hasCall(f, "retry") {
		t.Fatalf("calls %v", f.Calls())
	}
	f.edit(func(sn *sync.Picture, _ *model.State) {
		sn.Freshness = sync.Freshness{State: sync.Retrying, Err: "unknown session"}
	})
	d.pull()
	d.wantScreen("retrying…")
	f.edit(func(sn *sync.Picture, _ *model.State) { sn.Freshness = sync.Freshness{State: sync.Live} })
	d.pull()
	d.noScreen("Sync error")
	d.wantScreen("answer 5")
}

func TestSelectionExpandAndCopy(t *testing.T) {
	f := newFake(t)
	kindsSession(f)
	d := newDriver(t, 90, 100, Options{Source: f})
	d.wantScreen("Thinking: Reading the CI log")
	d.noScreen("The cache writer races with the reader")
	d.keys("tab")
	for i := 0; i < 40 && !d.m.tr.isSelectedID("r1"); i++ {
		d.keys("up")
	}
	if !d.m.tr.isSelectedID("r1") {
		t.Fatal("could not select the reasoning row")
	}
	d.keys("enter")
	d.wantScreen("The cache writer races with the reader")
	d.keys("space")
	d.noScreen("The cache writer races with the reader")
	d.keys("y")
	d.wantScreen("copied")
}

func TestMouseToggleAndWheel(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 30)
	d := newDriver(t, 60, 20, Options{Source: f})
	if d.m.View().MouseMode != tea.MouseModeCellMotion {
		t.Fatal("mouse not captured by default")
	}
	d.send(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	d.send(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	d.noScreen("answer 30")
	d.keys("alt+m")
	if d.m.View().MouseMode != tea.MouseModeNone {
		t.Fatal("alt+m did not release the mouse")
	}
	d.wantScreen("mouse released")
	d.keys("alt+m")
	if d.m.View().MouseMode != tea.MouseModeCellMotion {
		t.Fatal("alt+m did not capture the mouse again")
	}
}

func TestFocusReportsToSource(t *testing.T) {
	f := newFake(t)
	d := newDriver(t, 60, 20, Options{Source: f})
	if !d.m.View().ReportFocus {
		t.Fatal("focus reporting off")
	}
	d.send(tea.FocusMsg{})
	if !hasCall(f, "focus") {
		t.Fatalf("calls %v", f.Calls())
	}
}

func TestAutoThemeFollowsBackground(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 2)
	d := newDriver(t, 60, 20, Options{Source: f, Theme: "auto"})
	if !d.m.theme.Dark {
		t.Fatal("auto starts dark")
	}
	d.send(tea.BackgroundColorMsg{Color: lightBG{}})
	if d.m.theme.Dark || d.m.theme.Name != "light" {
		t.Fatalf("theme %q after a light background", d.m.theme.Name)
	}
	d.wantScreen("answer 2")
}

type lightBG struct{}

func (lightBG) RGBA() (r, g, b, a uint32) { return 0xffff, 0xffff, 0xffff, 0xffff }

func TestResizeRelaysOut(t *testing.T) {
	f := newFake(t)
	kindsSession(f)
	d := newDriver(t, 100, 40, Options{Source: f})
	checkWidths(t, d, 100)
	for _, w := range []int{40, 63, 120, 20} {
		d.send(tea.WindowSizeMsg{Width: w, Height: 30})
		checkWidths(t, d, w)
		if n := len(d.lines()); n != 30 {
			t.Fatalf("width %d: %d lines, want 30", w, n)
		}
	}
	d.send(tea.WindowSizeMsg{Width: 80, Height: 30})
	d.wantScreen("Running the tests with the race detector before I clean up.")
}

func TestHelpListsEveryKey(t *testing.T) {
	f := newFake(t)
	d := newDriver(t, 120, 70, Options{Source: f})
	d.keys("?")
	for _, b := range d.m.km.All() {
		d.wantScreen(b.Help().Desc)
	}
	d.keys("esc")
	d.noScreen("close help")
	// ? inside a non-empty composer types.
	d.typeText("why?")
	if d.m.overlay != overlayNone || d.m.comp.value() != "why?" {
		t.Fatalf("overlay %v composer %q", d.m.overlay, d.m.comp.value())
	}
}

func TestStatusBarShowsTurnWarningAndHost(t *testing.T) {
	f := newFake(t)
	kindsSession(f)
	d := newDriver(t, 200, 40, Options{Source: f, Host: "127.0.0.1:7777"})
	last := d.lines()[len(d.lines())-1]
	for _, want := range []string{"Fix the flaky sync test", "127.0.0.1:7777", "running 1:05", "1 queued", "rate limited · retrying (2/5)"} {
		if !strings.Contains(last, want) {
			t.Fatalf("status bar lacks %q: %q", want, last)
		}
	}
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := jsonMarshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSelectionFollowsAPendingPromptIntoItsUserMessage(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 2)
	d := newDriver(t, 70, 24, Options{Source: f})
	d.typeText("join me")
	d.keys("enter")
	d.pull()
	d.keys("tab") // selects the bottom row: the pending prompt
	if row, ok := d.m.tr.selectedRow(); !ok || row.Pending == nil {
		t.Fatalf("selected %+v", row)
	}
	f.frame(model.MethodTurnStarted, obj{"turnId": "t9", "startedAt": "2026-01-01T00:00:00Z", "commandId": "c1"})
	f.item(completed, obj{"itemId": "um", "kind": "userMessage", "status": "completed", "commandId": "c1", "text": "join me", "turnId": "t9"})
	d.pull()
	if !d.m.tr.isSelectedID("um") {
		t.Fatalf("selection did not move to the joined user message: %+v", d.m.tr.sel)
	}
}

func TestClickSelectsTheRowUnderThePointer(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 3)
	d := newDriver(t, 70, 24, Options{Source: f})
	y := d.lineOf("question 2")
	d.send(tea.MouseClickMsg{X: 5, Y: y, Button: tea.MouseLeft})
	if !d.m.tr.isSelectedID("u00002") || d.m.focus != focusTranscript {
		t.Fatalf("click on line %d selected %+v (focus %v)", y, d.m.tr.sel, d.m.focus)
	}
}

func TestApproveForTheSessionOnlyWhenOffered(t *testing.T) {
	f := newFake(t)
	f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
	f.frame(model.MethodItemStarted, obj{"item": obj{"itemId": "fc", "kind": "fileChange", "turnId": "t1", "revision": 1,
		"status": "inProgress", "position": 2, "changes": []obj{{"path": "notes.txt", "kind": "add", "diff": "@@ -0,0 +1 @@\n+hi\n"}}}})
	f.frame(model.MethodApprovalRequested, obj{"approvalId": "ap1", "turnId": "t1", "itemId": "fc",
		"summary": "Apply changes to notes.txt", "options": []string{"approve", "approveForSession", "deny"}})
	d := newDriver(t, 100, 30, Options{Source: f})
	d.wantScreen("Approval needed: file change")
	d.wantScreen("alt+s approve for the session")
	d.wantScreen("+ notes.txt (new)")
	d.keys("alt+s")
	if !hasCall(f, "respond:ap1:approveForSession") {
		t.Fatalf("calls %v", f.Calls())
	}
	d.wantScreen("approved for the session: Apply changes to notes.txt")

	// An approval that offers only approve and deny refuses the key.
	f.frame(model.MethodApprovalResolved, obj{"approvalId": "ap1", "decision": "approveForSession"})
	f.frame(model.MethodApprovalRequested, obj{"approvalId": "ap2", "turnId": "t1", "itemId": "fc",
		"summary": "Run ls", "options": []string{"approve", "deny"}})
	d.pull()
	d.noScreen("approve for the session  ")
	d.keys("alt+s")
	d.wantScreen("this approval does not offer approval for the session")
	if hasCall(f, "respond:ap2:approveForSession") {
		t.Fatal("sent a decision the approval does not offer")
	}
}
