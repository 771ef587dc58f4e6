package tui

import (
	"fmt"
	"slices"
	"testing"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

// startWindow publishes exchanges 1..upto as the start window
// (Picture.Start), as the client does after LoadStart or LoadForward;
// loading says whether a page of it is in flight.
func startWindow(f *fakeSource, upto int, loading bool) {
	f.t.Helper()
	st := model.NewState("s1")
	if upto > 0 {
		if err := st.ApplyOlder(exchangeEvents(f.t, 1, upto), false); err != nil {
			f.t.Fatal(err)
		}
	}
	f.edit(func(sn *sync.Picture, _ *model.State) { sn.Start, sn.StartLoading = st.View(), loading })
}

// joinStart folds exchanges 1..50 into the held range of olderSession,
// which then starts at the session's start, and drops the start window.
func joinStart(t *testing.T, f *fakeSource) {
	t.Helper()
	evs := exchangeEvents(t, 1, 50)
	f.edit(func(sn *sync.Picture, st *model.State) {
		if err := st.ApplyOlder(evs, false); err != nil {
			t.Fatal(err)
		}
		sn.Start, sn.StartLoading = nil, false
	})
}

// rowIDs are the transcript's row keys, the hole as "hole".
func rowIDs(d *driver) []string {
	var ids []string
	for i := range d.m.tr.rows() {
		if d.m.tr.isHole(i) {
			ids = append(ids, "hole")
			continue
		}
		ids = append(ids, d.m.tr.rowKey(i))
	}
	return ids
}

// exchangeIDs are the item ids of exchanges first..last (longSession's
// and exchangeEvents').
func exchangeIDs(first, last int) []string {
	var ids []string
	for i := first; i <= last; i++ {
		ids = append(ids, fmt.Sprintf("u%05d", i), fmt.Sprintf("a%05d", i))
	}
	return ids
}

// scrollUntil presses key until cond holds (at most 200 times).
func scrollUntil(t *testing.T, d *driver, key string, cond func() bool) {
	t.Helper()
	for i := 0; !cond(); i++ {
		if i == 200 {
			t.Fatalf("%s never got there:\n%s", key, d.screen())
		}
		d.keys(key)
	}
}

// Home on a session whose held range does not reach its start asks for
// the start window and shows its first item as soon as it comes; scrolling
// down to the hole asks for the next page, once per page, with the row on
// screen kept in place; the join leaves exactly the session's rows.
func TestHomeGoesToTheStartAndScrollingDownPagesForward(t *testing.T) {
	f := olderSession(t)
	d := newDriver(t, 60, 20, Options{Source: f})
	d.keys("home")
	if !hasCall(f, "loadStart") || hasCall(f, "loadOlder") {
		t.Fatalf("home called %v, want loadStart only", f.Calls())
	}
	d.wantScreen("loading the start of the session")
	d.wantScreen("answer 80") // nothing moves before the window comes
	startWindow(f, 0, true)
	d.pull()
	d.wantScreen("answer 80")
	startWindow(f, 10, false)
	d.pull()
	if d.lineOf("beginning of session") != 0 || d.lineOf("question 1") != 3 {
		t.Fatalf("the first item is not at the top:\n%s", d.screen())
	}
	d.noScreen("loading the start")
	if hasCall(f, "loadOlder") || hasCall(f, "loadForward") {
		t.Fatalf("calls %v at the start, want none but loadStart", f.Calls())
	}
	if want := append(append(exchangeIDs(1, 10), "hole"), exchangeIDs(51, 80)...); !slices.Equal(rowIDs(d), want) {
		t.Fatalf("rows %v, want %v", rowIDs(d), want)
	}

	scrollUntil(t, d, "pgdown", func() bool { return hasCall(f, "loadForward") })
	// The page is in flight: scrolling on asks nothing more.
	f.edit(func(sn *sync.Picture, _ *model.State) { sn.StartLoading = true })
	d.pull()
	d.keys("pgdown")
	d.wantScreen("more messages here · loading")
	if n := countCalls(f, "loadForward"); n != 1 {
		t.Fatalf("loadForward called %d times for one page, want 1", n)
	}
	line := d.lineOf("answer 10")
	if line < 0 {
		t.Fatalf("answer 10 is not on screen above the hole:\n%s", d.screen())
	}
	startWindow(f, 20, false)
	d.pull()
	if got := d.lineOf("answer 10"); got != line {
		t.Fatalf("answer 10 moved from line %d to %d when the page came:\n%s", line, got, d.screen())
	}
	d.noScreen("more messages here")
	if n := countCalls(f, "loadForward"); n != 1 {
		t.Fatalf("loadForward called %d times with the hole off screen, want 1", n)
	}

	scrollUntil(t, d, "pgdown", func() bool { return countCalls(f, "loadForward") == 2 })
	line = d.lineOf("answer 20")
	joinStart(t, f)
	d.pull()
	if got := d.lineOf("answer 20"); got != line || line < 0 {
		t.Fatalf("answer 20 moved from line %d to %d when the window joined:\n%s", line, got, d.screen())
	}
	if want := exchangeIDs(1, 80); !slices.Equal(rowIDs(d), want) {
		t.Fatalf("after the join the rows are %v, want the session's %v", rowIDs(d), want)
	}
	d.keys("end")
	d.wantScreen("answer 80")
	d.keys("home")
	if n := countCalls(f, "loadStart"); n != 1 {
		t.Fatalf("home with the whole session held called loadStart again (%d)", n)
	}
	if d.lineOf("beginning of session") != 0 || d.lineOf("question 1") != 3 {
		t.Fatalf("home does not show the first item:\n%s", d.screen())
	}
}

// With the hole at the top of the screen, a page fills it in place: its
// first item shows where the hole line was.
func TestAPageFillsTheHoleInPlace(t *testing.T) {
	f := olderSession(t)
	startWindow(f, 10, false)
	d := newDriver(t, 60, 20, Options{Source: f})
	d.keys("tab", "g")
	scrollUntil(t, d, "ctrl+e", func() bool { return d.lineOf("more messages here") == 0 })
	if !hasCall(f, "loadForward") {
		t.Fatal("the hole is on screen and nothing was asked")
	}
	startWindow(f, 20, false)
	d.pull()
	if got := d.lineOf("question 11"); got != 1 {
		t.Fatalf("the page's first item is on line %d, want its header on line 0 (the hole's):\n%s", got, d.screen())
	}
	d.noScreen("answer 10")
}

// The hole is chrome: the selection steps over it, a click on it selects
// nothing, and a search passes it by.
func TestSelectionAndSearchStepOverTheHole(t *testing.T) {
	f := olderSession(t)
	startWindow(f, 10, false)
	d := newDriver(t, 60, 20, Options{Source: f})
	d.keys("home", "tab")
	scrollUntil(t, d, "ctrl+e", func() bool { return d.lineOf("question 51") >= 0 && d.lineOf("answer 10") >= 0 })
	hole := d.lineOf("more messages here")
	if d.m.tr.selectAtLine(hole) {
		t.Fatal("a click on the hole selected a row")
	}
	if !d.m.tr.selectAtLine(d.lineOf("question 51")) {
		t.Fatal("a click on question 51 selected nothing")
	}
	d.keys("up")
	if row, ok := d.m.tr.selectedRow(); !ok || row.Item == nil || row.Item.ID != "a00010" {
		t.Fatalf("up from the view's first row selects %+v, want answer 10 above the hole", row)
	}
	d.keys("down")
	if row, ok := d.m.tr.selectedRow(); !ok || row.Item == nil || row.Item.ID != "u00051" {
		t.Fatalf("down from answer 10 selects %+v, want question 51 below the hole", row)
	}

	d.keys("/")
	d.typeText("question 3")
	d.keys("enter")
	if row, ok := d.m.tr.selectedRow(); !ok || row.Item == nil || row.Item.ID != "u00003" {
		t.Fatalf("the search selects %+v, want question 3 in the start window", row)
	}
	d.keys("N")
	d.wantScreen("no older match")
	if hasCall(f, "loadOlder") {
		t.Fatal("a search past the start window asked for older history")
	}
}

// A page that went wrong is not asked again in a loop: the next one waits
// for a key.
func TestForwardAfterAnErrorWaitsForAKey(t *testing.T) {
	f := olderSession(t)
	startWindow(f, 2, false)
	d := newDriver(t, 60, 40, Options{Source: f})
	d.keys("home")
	if n := countCalls(f, "loadForward"); n != 1 {
		t.Fatalf("the hole is on screen: loadForward called %d times, want 1", n)
	}
	f.edit(func(sn *sync.Picture, _ *model.State) {
		sn.Errors, sn.ErrorCount = []string{"view/page before (start) failed: boom"}, 1
	})
	d.pull()
	d.pull()
	if n := countCalls(f, "loadForward"); n != 1 {
		t.Fatalf("after a failed page loadForward called %d times without a key, want 1", n)
	}
	d.keys("tab")
	if n := countCalls(f, "loadForward"); n != 2 {
		t.Fatalf("a key with the hole on screen: loadForward called %d times, want 2", n)
	}
}

// End follows the live tail with a start window above; new items show.
func TestEndFollowsWithAStartWindow(t *testing.T) {
	f := olderSession(t)
	startWindow(f, 10, false)
	d := newDriver(t, 60, 20, Options{Source: f})
	d.keys("home")
	d.wantScreen("question 1")
	d.keys("end")
	f.item(completed, obj{"itemId": "late", "kind": "agentMessage", "status": "completed", "text": "late news"})
	d.pull()
	d.wantScreen("late news")
	d.noScreen("more messages here")
}

// Another key pressed before the start window comes gives up the jump:
// the window does not pull the screen away from where the user went.
func TestAKeyBeforeTheWindowComesGivesUpTheJump(t *testing.T) {
	f := olderSession(t)
	d := newDriver(t, 60, 20, Options{Source: f})
	d.keys("home", "pgup")
	line := d.lineOf("answer 75")
	startWindow(f, 10, false)
	d.pull()
	if got := d.lineOf("answer 75"); got != line || line < 0 {
		t.Fatalf("answer 75 moved from line %d to %d when the window came:\n%s", line, got, d.screen())
	}
	d.noScreen("beginning of session")
}
