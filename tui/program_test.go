package tui

import (
	"bytes"
	"encoding/base64"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// A burst of change signals costs one frame: only the first schedules the
// coalescing timer, and the frame pulls the source once.
func TestUpdatesCoalesceIntoOneFrame(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 3)
	m := stillModel(t, f)
	frames := 0
	m.after = func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		if d == m.opts.FrameInterval {
			frames++
		}
		return nil
	}
	for i := 0; i < 5; i++ {
		longSession(f, 10+i, 1)
		m.Update(updateMsg{})
	}
	if frames != 1 {
		t.Fatalf("%d frame timers for one burst, want 1", frames)
	}
	m.Update(frameMsg{})
	if got := m.view.Items[len(m.view.Items)-1].Text(); got != "answer 14" {
		t.Fatalf("frame shows %q, want the newest state", got)
	}
	m.Update(updateMsg{})
	if frames != 2 {
		t.Fatalf("after a frame the next signal must schedule a new one (%d)", frames)
	}
}

// Copying writes an OSC 52 sequence to the terminal, and only then says
// "copied".
func TestCopyWritesOSC52(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 2)
	m := stillModel(t, f)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 20))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("answer 2")) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	tm.Send(keyMsg("tab")) // transcript focus selects the bottom row: "answer 2"
	tm.Send(keyMsg("y"))
	var out []byte
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		out = append(out, b...)
		return bytes.Contains(out, []byte("copied"))
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	osc := []byte("\x1b]52;c;")
	i, j := bytes.Index(out, osc), bytes.Index(out, []byte("copied"))
	if i < 0 || i > j {
		t.Fatalf("no OSC 52 sequence before the notice: %q", out)
	}
	payload := out[i+len(osc):]
	if k := bytes.IndexAny(payload, "\x07\x1b"); k >= 0 {
		payload = payload[:k]
	}
	if got, err := base64.StdEncoding.DecodeString(string(payload)); err != nil || string(got) != "answer 2" {
		t.Fatalf("OSC 52 payload %q decodes to %q (%v)", payload, got, err)
	}
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}
