package tui

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

func TestSteadyStream(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	const interval = 33 * time.Millisecond
	for _, c := range []struct {
		name                 string
		lastFrame, lastInput time.Time
		want                 bool
	}{
		{"no frame yet", time.Time{}, time.Time{}, false},
		{"frames follow each other, no key", now.Add(-10 * time.Millisecond), time.Time{}, true},
		{"two intervals since the last frame", now.Add(-2 * interval), time.Time{}, true},
		{"a pause before this change", now.Add(-2*interval - time.Millisecond), time.Time{}, false},
		{"a key just now", now.Add(-10 * time.Millisecond), now.Add(-100 * time.Millisecond), false},
		{"a key a while ago", now.Add(-10 * time.Millisecond), now.Add(-inputQuiet), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := steadyStream(now, c.lastFrame, c.lastInput, interval); got != c.want {
				t.Fatalf("steadyStream = %v, want %v", got, c.want)
			}
		})
	}
}

func TestFrameInterval(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	const base = DefaultFrameInterval
	recent := now.Add(-40 * time.Millisecond)
	for _, c := range []struct {
		name string
		p    pace
		want time.Duration
	}{
		{"the first frame", pace{}, base},
		{"a change after a pause", pace{lastFrame: now.Add(-time.Second)}, base},
		{"a steady stream", pace{lastFrame: recent}, steadyFrameInterval},
		{"a steady stream fast for a moment", pace{lastFrame: recent, fastSince: now.Add(-fastStreamAfter / 2)}, steadyFrameInterval},
		{"a steady stream fast for a while", pace{lastFrame: recent, fastSince: now.Add(-fastStreamAfter)}, fastFrameInterval},
		{"a fast stream while typing", pace{lastFrame: recent, lastInput: now.Add(-100 * time.Millisecond), fastSince: now.Add(-5 * time.Second)}, base},
		{"a fast stream, typed a while ago", pace{lastFrame: recent, lastInput: now.Add(-inputQuiet), fastSince: now.Add(-5 * time.Second)}, fastFrameInterval},
		{"a flood for a moment", pace{lastFrame: recent, fastSince: now.Add(-5 * time.Second), floodSince: now.Add(-fastStreamAfter / 2)}, fastFrameInterval},
		{"a flood for a while", pace{lastFrame: recent, fastSince: now.Add(-5 * time.Second), floodSince: now.Add(-fastStreamAfter)}, floodFrameInterval},
		{"a flood while typing", pace{lastFrame: recent, lastInput: now.Add(-100 * time.Millisecond), fastSince: now.Add(-5 * time.Second), floodSince: now.Add(-5 * time.Second)}, base},
		{"a flood after a pause", pace{lastFrame: now.Add(-time.Second), fastSince: now.Add(-5 * time.Second), floodSince: now.Add(-5 * time.Second)}, base},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := frameInterval(now, c.p, base); got != c.want {
				t.Fatalf("frameInterval = %v, want %v", got, c.want)
			}
			// The user only watches at the fast and flood paces.
			if w := watching(now, c.p, base); w != (c.want >= fastFrameInterval) {
				t.Fatalf("watching = %v at a frame interval of %v", w, c.want)
			}
		})
	}
}

func TestPaceFramedTracksHowLongAStreamIsFast(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	const height = 20 // the window's lines
	for _, c := range []struct {
		name         string
		frames       []int // milliseconds after t0
		fresh        []int // lines new to each frame
		since, flood time.Time
	}{
		{"slow frames", []int{0, 50, 100}, []int{1, 2, 0}, time.Time{}, time.Time{}},
		{"fast from the second frame", []int{0, 50, 100, 150}, []int{1, 5, 3, 9}, at(50), time.Time{}},
		{"a slow frame starts over", []int{0, 50, 100, 150}, []int{5, 5, 1, 5}, at(150), time.Time{}},
		{"a pause starts over", []int{0, 50, 900, 950}, []int{5, 5, 5, 5}, at(900), time.Time{}},
		{"half the window from the second frame", []int{0, 100, 200, 300}, []int{2, 10, 15, 20}, at(100), at(100)},
		{"less than half starts the flood over", []int{0, 100, 200, 300}, []int{12, 12, 9, 12}, at(0), at(300)},
		{"a flood after a pause starts over", []int{0, 200, 900, 1100}, []int{20, 20, 20, 20}, at(900), at(900)},
		{"a flood goes on at its own pace", []int{0, 100, 300, 500}, []int{20, 20, 20, 20}, at(0), at(0)},
	} {
		t.Run(c.name, func(t *testing.T) {
			var p pace
			for i, ms := range c.frames {
				p.framed(at(ms), c.fresh[i], height)
			}
			if !p.fastSince.Equal(c.since) || !p.floodSince.Equal(c.flood) || !p.lastFrame.Equal(at(c.frames[len(c.frames)-1])) {
				t.Fatalf("fastSince %v, floodSince %v, lastFrame %v; want %v, %v, %v", p.fastSince, p.floodSince, p.lastFrame, c.since, c.flood, at(c.frames[len(c.frames)-1]))
			}
		})
	}
}

func TestFreshLines(t *testing.T) {
	for _, c := range []struct {
		name      string
		prev, cur []string
		want      int
	}{
		{"the first frame", nil, []string{"a", "b"}, 2},
		{"nothing changed", []string{"a", "b", "c"}, []string{"a", "b", "c"}, 0},
		{"scrolled by two", []string{"a", "b", "c", "d"}, []string{"c", "d", "e", "f"}, 2},
		{"the last line grew", []string{"a", "b", "c"}, []string{"a", "b", "cd"}, 1},
		{"blank lines are not new", []string{"a", "", "b"}, []string{"b", "", "c"}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := freshLines(c.prev, c.cur); got != c.want {
				t.Fatalf("freshLines = %d, want %d", got, c.want)
			}
		})
	}
}

// While a frame is pending the model does not wait for the next change
// signal (the frame's pull covers it); the frame waits again. A spinner
// step during a pending frame lays nothing out: the frame shows it.
func TestPendingFrameWaitsForNoSignal(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 3)
	m := stillModel(t, f)
	timer := func() tea.Msg { return nil }
	m.after = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return timer }
	m.Init() // sets the clock's timer for the messages' stamps
	_, cmd := m.Update(updateMsg{})
	if n, _ := runCmds(cmd); n != 1 {
		t.Fatalf("a change signal gave %d commands, want only the frame timer", n)
	}
	before := m.frame
	m.Update(tickMsg{})
	if m.dirty || m.frame != before {
		t.Fatal("a spinner step laid the screen out while a frame was pending")
	}
	_, cmd = m.Update(frameMsg{})
	select { // so that a wait for the signal returns
	case f.ch <- struct{}{}:
	default:
	}
	waits := 0
	_, msgs := runCmds(cmd)
	for _, msg := range msgs {
		if _, ok := msg.(updateMsg); ok {
			waits++
		}
	}
	if waits != 1 {
		t.Fatalf("the frame waits for the next change signal %d times, want 1", waits)
	}
}

// runCmds runs cmd and the commands of the batches it returns, and
// returns how many commands ran and the other messages they returned.
func runCmds(cmd tea.Cmd) (int, []tea.Msg) {
	if cmd == nil {
		return 0, nil
	}
	msg := cmd()
	b, ok := msg.(tea.BatchMsg)
	if !ok {
		return 1, []tea.Msg{msg}
	}
	n, msgs := 0, []tea.Msg(nil)
	for _, c := range b {
		k, ms := runCmds(c)
		n += k
		msgs = append(msgs, ms...)
	}
	return n, msgs
}

// Typing keeps frames at the full rate; the Enter that sends the prompt
// starts watching, so the answer's stream may slow the frames at once.
func TestSendingReleasesTheFullRate(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 3)
	m := stillModel(t, f)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, k := range []string{"h", "i"} {
		m.Update(keyMsg(k))
	}
	now := time.Now()
	streaming := pace{lastFrame: now.Add(-10 * time.Millisecond), lastInput: m.pace.lastInput}
	if got := frameInterval(now, streaming, DefaultFrameInterval); got != DefaultFrameInterval {
		t.Fatalf("while typing the frame interval is %v, want the full rate %v", got, DefaultFrameInterval)
	}
	_, cmd := m.Update(keyMsg("enter"))
	runCmds(cmd)
	if calls := f.Calls(); len(calls) == 0 || calls[len(calls)-1] != "submit:hi" {
		t.Fatalf("enter did not send the prompt: %v", calls)
	}
	streaming.lastInput = m.pace.lastInput
	if got := frameInterval(now, streaming, DefaultFrameInterval); got != steadyFrameInterval {
		t.Fatalf("after sending the frame interval is %v, want the steady stream's %v", got, steadyFrameInterval)
	}
}

// Options.Serial hears once that the user only watches a fast stream,
// and at once that a key, a paste or the mouse ends it; never twice the
// same.
func TestSerialFollowsWatching(t *testing.T) {
	f := newFake(t)
	f.item("item/completed", map[string]any{"itemId": "u1", "kind": "userMessage", "status": "completed", "text": "go", "position": 1})
	f.item("item/started", map[string]any{"itemId": "live", "kind": "agentMessage", "text": "", "position": 2})
	var told []bool
	m, err := New(Options{Source: f, Theme: "dark", Serial: func(on bool) { told = append(told, on) }})
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	lines := 0
	frame := func() {
		t.Helper()
		var sb strings.Builder
		for range 12 { // half the window and more: a flood
			lines++
			sb.WriteString("line " + itoa(lines) + "\n\n")
		}
		foldDeltas(t, f, sb.String())
		m.Update(frameMsg{})
	}
	frame()
	if len(told) != 0 {
		t.Fatalf("the first frame told Serial %v", told)
	}
	// A stream that has been fast for longer than fastStreamAfter.
	m.pace.fastSince = time.Now().Add(-2 * fastStreamAfter)
	frame()
	frame()
	if !slices.Equal(told, []bool{true}) {
		t.Fatalf("watching a fast stream told Serial %v, want [true]", told)
	}
	for _, input := range []tea.Msg{keyMsg("x"), tea.PasteMsg{Content: "y"}, tea.MouseWheelMsg{Button: tea.MouseWheelDown}} {
		told = nil
		m.Update(input)
		if !slices.Equal(told, []bool{false}) {
			t.Fatalf("%T told Serial %v, want [false]", input, told)
		}
		told = nil
		frame() // the input was just now: not watching
		if len(told) != 0 {
			t.Fatalf("a frame right after %T told Serial %v", input, told)
		}
		m.pace.lastInput = time.Now().Add(-inputQuiet)
		m.pace.fastSince = time.Now().Add(-2 * fastStreamAfter)
		frame()
		if !slices.Equal(told, []bool{true}) {
			t.Fatalf("watching again after %T told Serial %v, want [true]", input, told)
		}
	}
}
