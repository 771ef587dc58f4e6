package tui

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"
)

func TestEditorCommand(t *testing.T) {
	cases := []struct {
		name          string
		visual, edito string
		want          string
	}{
		{"visual first", "nvim", "nano", "nvim"},
		{"editor without visual", "", "nano", "nano"},
		{"arguments kept", "code --wait", "", "code --wait"},
		{"blank visual", "  ", "ed", "ed"},
		{"neither", "", "", "vi"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := map[string]string{"VISUAL": c.visual, "EDITOR": c.edito}
			if got := strings.Join(editorCommand(func(k string) string { return env[k] }), " "); got != c.want {
				t.Fatalf("editorCommand = %q, want %q", got, c.want)
			}
		})
	}
}

// The file ends with one newline; reading it back takes exactly that one
// off, so a draft survives the round trip whatever it ends with.
func TestEditorFileRoundTrip(t *testing.T) {
	cases := []struct{ draft, file string }{
		{"", ""},
		{"one line", "one line\n"},
		{"two\nlines", "two\nlines\n"},
		{"ends with a blank line\n", "ends with a blank line\n\n"},
		{"\n", "\n\n"},
	}
	for _, c := range cases {
		if got := editorFileText(c.draft); got != c.file {
			t.Errorf("editorFileText(%q) = %q, want %q", c.draft, got, c.file)
		}
		if got := draftFromEditor(c.file); got != c.draft {
			t.Errorf("draftFromEditor(%q) = %q, want %q", c.file, got, c.draft)
		}
	}
	saved := []struct{ file, draft string }{
		{"no final newline", "no final newline"},
		{"crlf\r\n", "crlf"},
		{"two blank lines\n\n\n", "two blank lines\n\n"},
	}
	for _, c := range saved {
		if got := draftFromEditor(c.file); got != c.draft {
			t.Errorf("draftFromEditor(%q) = %q, want %q", c.file, got, c.draft)
		}
	}
}

// scriptedEditor writes a shell script that runs body with the file as $1
// and makes it $VISUAL.
func scriptedEditor(t *testing.T, body string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "editor.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VISUAL", path)
}

// editorProgram runs the real model in a Bubble Tea program (teatest),
// types a draft, presses ctrl+g and waits for marker.
func editorProgram(t *testing.T, marker string) *Model {
	t.Helper()
	f := newFake(t)
	longSession(f, 1, 1)
	m := stillModel(t, f)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 20))
	wait := func(s string) {
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
			teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	}
	wait("answer 1")
	tm.Type("first line")
	tm.Send(keyMsg("ctrl+g"))
	wait(marker)
	tm.Send(keyMsg("ctrl+c"))
	tm.Send(keyMsg("ctrl+c"))
	tm.Send(keyMsg("ctrl+c"))
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	_, _ = io.ReadAll(tm.FinalOutput(t))
	return fm
}

// ctrl+g runs $VISUAL on the draft; what it saved becomes the draft.
func TestEditorWritesTheDraft(t *testing.T) {
	seen := filepath.Join(t.TempDir(), "seen")
	// Like an editor: a new line after the draft's, saved with its newline.
	scriptedEditor(t, `cp "$1" `+seen+`; printf 'second line from the editor\n' >> "$1"`)
	fm := editorProgram(t, "draft from the editor")
	if b, err := os.ReadFile(seen); err != nil || string(b) != "first line\n" {
		t.Fatalf("the editor was given %q (%v), want the draft and a final newline", b, err)
	}
	// ctrl+c cleared the draft into history: it is the newest entry.
	h := fm.comp.history
	if len(h) == 0 || h[len(h)-1] != "first line\nsecond line from the editor" {
		t.Fatalf("history %q, want the edited draft", h)
	}
	if ms, _ := filepath.Glob(filepath.Join(os.TempDir(), "lookout-prompt-*.md")); len(ms) > 0 {
		t.Logf("temporary files left (maybe other runs): %v", ms)
	}
}

// An editor that fails leaves the draft as it was and says so.
func TestEditorFailureKeepsTheDraft(t *testing.T) {
	scriptedEditor(t, `echo garbage >> "$1"; exit 3`)
	fm := editorProgram(t, "draft unchanged")
	h := fm.comp.history
	if len(h) == 0 || h[len(h)-1] != "first line" {
		t.Fatalf("history %q, want the draft as typed", h)
	}
}

// The edited text reaches the composer through Update (driver).
func TestEditorDoneFillsTheComposer(t *testing.T) {
	f := newFake(t)
	d := newDriver(t, 60, 20, Options{Source: f})
	d.keys("tab")
	d.send(editorDoneMsg{text: "from the editor\n"})
	if d.m.focus != focusComposer || d.m.comp.value() != "from the editor" {
		t.Fatalf("focus %v composer %q", d.m.focus, d.m.comp.value())
	}
	d.keys("enter")
	if !hasCall(f, "submit:from the editor") {
		t.Fatalf("calls %v", f.Calls())
	}
}
