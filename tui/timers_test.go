package tui

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

// What a screen with nothing changing on it sets timers for: only what
// moves with time (a running turn's spinner and elapsed time, a
// reconnect countdown, a message time about to read differently).
func TestScreenTimers(t *testing.T) {
	oldAnswer := func(f *fakeSource) {
		f.item(completed, obj{"itemId": "u1", "kind": "userMessage", "status": "completed", "text": "question",
			"recordedAt": "2025-06-01T10:00:00Z"})
		f.item(completed, obj{"itemId": "a1", "kind": "agentMessage", "status": "completed", "text": "answer",
			"recordedAt": "2025-06-01T10:00:05Z"})
	}
	cases := []struct {
		name  string
		setUp func(f *fakeSource)
		want  []time.Duration
	}{
		{"an empty session", func(*fakeSource) {}, nil},
		{"messages of an earlier year: stamps that never change", oldAnswer, nil},
		{"a message of a minute ago: when it reads 2 min ago", func(f *fakeSource) {
			// Recorded at 00:00:00, now is 00:01:05: "2 min ago" from 00:01:30.
			f.item(completed, obj{"itemId": "u1", "kind": "userMessage", "status": "completed", "text": "question"})
		}, []time.Duration{25 * time.Second}},
		{"a running turn: the spinner", func(f *fakeSource) {
			oldAnswer(f)
			f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
		}, []time.Duration{120 * time.Millisecond}},
		{"reconnecting in 2.3 s: when the countdown shows 2s", func(f *fakeSource) {
			oldAnswer(f)
			f.edit(func(sn *sync.Picture, _ *model.State) {
				sn.Freshness = sync.Freshness{State: sync.Reconnecting, NextAttempt: fixedNow.Add(2300 * time.Millisecond)}
			})
		}, []time.Duration{300 * time.Millisecond}},
		{"reconnecting, trying now: nothing counts down", func(f *fakeSource) {
			oldAnswer(f)
			f.edit(func(sn *sync.Picture, _ *model.State) { sn.Freshness.State = sync.Reconnecting })
		}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			c.setUp(f)
			if got := timersSet(t, f); !slices.Equal(got, c.want) {
				t.Fatalf("timers set: %v, want %v", got, c.want)
			}
		})
	}
}

// timersSet runs a model on f through what an attach with nothing
// changing goes through (its start, the terminal's size, a frame, a key
// typed and taken back) and returns the delays of the timers it set.
func timersSet(t *testing.T, f *fakeSource) []time.Duration {
	t.Helper()
	m, err := New(Options{Source: f, Theme: "dark", Now: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatal(err)
	}
	var set []time.Duration
	m.after = func(d time.Duration, _ func(time.Time) tea.Msg) tea.Cmd {
		set = append(set, d)
		return nil
	}
	m.listen = func() tea.Cmd { return nil }
	m.Init()
	for _, msg := range []tea.Msg{tea.WindowSizeMsg{Width: 100, Height: 30}, frameMsg{}, keyMsg("x"), keyMsg("backspace")} {
		m.Update(msg)
	}
	return set
}
