package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestScanRows(t *testing.T) {
	rows := []string{"alpha", "beta", "gamma", "beta two", "delta"}
	text := func(i int) string { return rows[i] }
	cases := []struct {
		name              string
		from, dir, budget int
		q                 string
		want              int
		found, more       bool
	}{
		{"newest match going older", 5, -1, 10, "beta", 3, true, false},
		{"the one before", 3, -1, 10, "beta", 1, true, false},
		{"none older", 1, -1, 10, "beta", 0, false, false},
		{"newer", 1, 1, 10, "beta", 3, true, false},
		{"none newer", 3, 1, 10, "beta", 0, false, false},
		{"budget used: go on from there", 5, -1, 2, "alpha", 3, false, true},
		{"going on finds it", 1, -1, 2, "alpha", 0, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			i, found, more := scanRows(len(rows), c.from, c.dir, c.budget, text, c.q)
			if found != c.found || more != c.more || (found || more) && i != c.want {
				t.Fatalf("scanRows = %d, %v, %v; want %d, %v, %v", i, found, more, c.want, c.found, c.more)
			}
		})
	}
}

func TestMarkMatches(t *testing.T) {
	mark := func(s ...string) string { return "[" + strings.Join(s, "") + "]" }
	cases := []struct{ line, q, want string }{
		{"Question 12 and question 1", "question 1", "[Question 1]2 and [question 1]"},
		{"\x1b[1mbold text\x1b[m", "text", "bold [text]"},
		{"nothing here", "zzz", "nothing here"},
	}
	for _, c := range cases {
		t.Run(c.q, func(t *testing.T) {
			got := markMatches(c.line, c.q, mark)
			if ansi.Strip(got) != c.want {
				t.Errorf("markMatches(%q, %q) = %q, want %q", c.line, c.q, ansi.Strip(got), c.want)
			}
			if ansi.StringWidth(got)-strings.Count(c.want, "[")*2 != ansi.StringWidth(c.line) {
				t.Errorf("markMatches(%q) changed the width: %q", c.line, got)
			}
		})
	}
}

// / types a query, enter selects the newest match, N and n walk older and
// newer, esc on the search line drops it.
func TestSearchWalksMatches(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 30)
	d := newDriver(t, 60, 20, Options{Source: f})
	d.keys("ctrl+f")
	d.typeText("QUESTION 2")
	d.wantScreen("/ QUESTION 2")
	d.keys("enter")
	sel := func() string { r, _ := d.m.tr.selectedRow(); return r.Item.ID }
	if sel() != "u00029" {
		t.Fatalf("enter selected %s, want the newest match u00029", sel())
	}
	d.keys("N")
	if sel() != "u00028" {
		t.Fatalf("N selected %s, want u00028", sel())
	}
	for range 9 {
		d.keys("N")
	}
	if sel() != "u00002" {
		t.Fatalf("N selected %s, want u00002", sel())
	}
	d.wantScreen("question 2")
	d.keys("N")
	d.wantScreen("no older match")
	d.keys("n")
	if sel() != "u00020" {
		t.Fatalf("n selected %s, want u00020", sel())
	}
	// The match is highlighted: the styled line differs from the plain one.
	if !strings.Contains(d.m.View().Content, d.m.theme.Selected.Reverse(true).Render("question 2")) {
		t.Fatal("the match is not highlighted")
	}
	d.keys("/", "esc")
	d.noScreen("/ QUESTION 2")
	if d.m.srch.query != "" {
		t.Fatal("esc kept the search")
	}
	checkWidths(t, d, 60)
}

// A search through many rows goes step by step (each step a message, so
// the event loop keeps running) and still finds the oldest match.
func TestSearchIsIncremental(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 3*searchBudget)
	f.item(completed, obj{"itemId": "needle", "kind": "agentMessage", "status": "completed", "text": "x"})
	d := newDriver(t, 60, 20, Options{Source: f})
	d.m.srch.query = "question 1\n" // matches nothing: the scan reads everything
	steps := 0
	cmd := d.m.findMatch(len(d.m.tr.set.rows), -1)
	for cmd != nil {
		msg, ok := cmd().(searchStepMsg)
		if !ok {
			break
		}
		steps++
		cmd = d.m.searchStep(msg)
	}
	if steps < 5 {
		t.Fatalf("%d steps through %d rows, want at least 5", steps, len(d.m.tr.set.rows))
	}
}

// Past the oldest loaded match the search loads older history and goes
// on in each page as it lands.
func TestSearchLoadsOlderHistory(t *testing.T) {
	f := olderSession(t) // 51..80 loaded, 1..50 on the host
	d := newDriver(t, 60, 20, Options{Source: f})
	d.keys("tab", "/")
	d.typeText("question 7 ")
	d.m.srch.query = "question 7" // "question 7" matches 7 and 70..79
	d.keys("enter")
	for range 10 {
		d.keys("N")
	}
	if n := countCalls(f, "loadOlder"); n != 1 {
		t.Fatalf("%d older pages asked for, want 1", n)
	}
	d.wantScreen("searching older history")
	olderPage(t, f, 21, 30, true) // 21..50: no match, ask again
	d.pull()
	if n := countCalls(f, "loadOlder"); n != 2 {
		t.Fatalf("%d older pages asked for after a page without a match, want 2", n)
	}
	olderPage(t, f, 1, 20, false)
	d.pull()
	if r, ok := d.m.tr.selectedRow(); !ok || r.Item.ID != "u00007" {
		t.Fatalf("after the older pages the search selected %+v", r.Item)
	}
	d.wantScreen("question 7")
}

func TestEscEndsASteppingSearchThenLeavesTheTranscript(t *testing.T) {
	f := newFake(t)
	kindsSession(f)
	d := newDriver(t, 90, 40, Options{Source: f})
	d.keys("tab", "/")
	d.typeText("rm -rf")
	d.keys("enter")
	d.wantScreen("/ rm -rf · ")
	d.keys("esc")
	d.noScreen("/ rm -rf")
	d.noScreen("interrupting") // the first esc ends the search, not the turn
	d.wantScreen("transcript focused")
	d.keys("i")
	d.noScreen("transcript focused")
}
