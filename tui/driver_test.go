package tui

import (
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// fixedNow is the tests' clock: 65 s after the turns' startedAt.
var fixedNow = time.Date(2026, 1, 1, 0, 1, 5, 0, time.UTC)

// driver runs a Model synchronously against a fakeSource: every message
// goes through Update, and the commands it returns are executed and their
// messages fed back, except timers longer than a frame (they never fire)
// and the source wait (the fake's channel is closed; pulls are explicit).
type driver struct {
	t  testing.TB
	f  *fakeSource
	m  *Model
	qt bool // a tea.Quit came back
}

func newDriver(t testing.TB, w, h int, opts Options) *driver {
	t.Helper()
	f, _ := opts.Source.(*fakeSource) // nil for a real source
	if opts.Now == nil {
		opts.Now = func() time.Time { return fixedNow }
	}
	if opts.Theme == "" {
		opts.Theme = "dark"
	}
	opts.Still = true
	m, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	m.after = func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		if d > 50*time.Millisecond {
			return nil
		}
		return func() tea.Msg { return fn(fixedNow) }
	}
	// The driver delivers the source's changes as frames itself (pull).
	m.listen = func() tea.Cmd { return nil }
	d := &driver{t: t, f: f, m: m}
	d.send(initMsg{m.initCmd})
	m.initCmd = nil
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	return d
}

// initMsg makes send run the model's first-layout command, as Init would.
type initMsg struct{ cmd tea.Cmd }

// send delivers msg and everything it leads to.
func (d *driver) send(msg tea.Msg) {
	d.t.Helper()
	queue := []tea.Msg{msg}
	for n := 0; len(queue) > 0; n++ {
		if n > 200 {
			d.t.Fatal("message loop does not settle")
		}
		next := queue[0]
		queue = queue[1:]
		if _, ok := next.(updateMsg); ok {
			next = frameMsg{}
		}
		if im, ok := next.(initMsg); ok {
			queue = append(queue, d.run(im.cmd)...)
			continue
		}
		_, cmd := d.m.Update(next)
		queue = append(queue, d.run(cmd)...)
	}
}

// run executes a command tree and returns the messages it produced.
func (d *driver) run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(5 * time.Second):
		d.t.Fatal("a command blocked")
	}
	switch msg := msg.(type) {
	case nil, sourceClosedMsg:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, d.run(c)...)
		}
		return out
	case tea.QuitMsg:
		d.qt = true
		return nil
	}
	// tea.Sequence's message is an unexported []tea.Cmd.
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
		var out []tea.Msg
		for i := 0; i < v.Len(); i++ {
			out = append(out, d.run(v.Index(i).Interface().(tea.Cmd))...)
		}
		return out
	}
	if reflect.TypeOf(msg).PkgPath() == "charm.land/bubbletea/v2" {
		return nil // program-level requests (clipboard, colours)
	}
	return []tea.Msg{msg}
}

// pull makes the model read the source, as a coalesced frame would.
func (d *driver) pull() { d.send(frameMsg{}) }

// keys presses each named key ("enter", "ctrl+c", "alt+a", "x", ...).
func (d *driver) keys(names ...string) {
	d.t.Helper()
	for _, n := range names {
		d.send(keyMsg(n))
	}
}

// typeText types literal text.
func (d *driver) typeText(s string) {
	for _, r := range s {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// screen is the current frame without colours.
func (d *driver) screen() string { return ansi.Strip(d.m.View().Content) }

func (d *driver) lines() []string { return strings.Split(d.screen(), "\n") }

func (d *driver) wantScreen(sub string) {
	d.t.Helper()
	if s := d.screen(); !strings.Contains(s, sub) {
		d.t.Fatalf("screen lacks %q:\n%s", sub, s)
	}
}

func (d *driver) noScreen(sub string) {
	d.t.Helper()
	if s := d.screen(); strings.Contains(s, sub) {
		d.t.Fatalf("screen unexpectedly has %q:\n%s", sub, s)
	}
}

// lineOf is the screen line holding sub, or -1.
func (d *driver) lineOf(sub string) int {
	for i, l := range d.lines() {
		if strings.Contains(l, sub) {
			return i
		}
	}
	return -1
}

var namedKeys = map[string]rune{
	"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "up": tea.KeyUp, "down": tea.KeyDown,
	"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd, "space": tea.KeySpace,
	"f1": tea.KeyF1, "backspace": tea.KeyBackspace,
}

// keyMsg builds the key press whose String() is name.
func keyMsg(name string) tea.KeyPressMsg {
	var mod tea.KeyMod
	for {
		switch {
		case strings.HasPrefix(name, "ctrl+"):
			mod |= tea.ModCtrl
			name = name[5:]
			continue
		case strings.HasPrefix(name, "alt+"):
			mod |= tea.ModAlt
			name = name[4:]
			continue
		case strings.HasPrefix(name, "shift+"):
			mod |= tea.ModShift
			name = name[6:]
			continue
		}
		break
	}
	if c, ok := namedKeys[name]; ok {
		k := tea.KeyPressMsg{Code: c, Mod: mod}
		if c == tea.KeySpace && mod == 0 {
			k.Text = " "
		}
		return k
	}
	r := []rune(name)[0]
	k := tea.KeyPressMsg{Code: r, Mod: mod}
	if mod == 0 {
		k.Text = name
	}
	return k
}

func TestKeyMsgNames(t *testing.T) {
	for _, n := range []string{"enter", "ctrl+c", "alt+a", "shift+up", "pgup", "x", "?", "G", "alt+enter", "ctrl+j", "space"} {
		if got := keyMsg(n).String(); got != n {
			t.Errorf("keyMsg(%q).String() = %q", n, got)
		}
	}
}
