package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSearchLoadsOlderHistoryAndTheEditorRoundTrip runs `lookout attach`
// with a short tail in tmux: a search for the session's first prompt,
// which is not loaded, walks older history in until it is on screen; then
// ctrl+g hands the draft to a scripted $VISUAL and the edited text comes
// back to the composer and is sent.
func TestSearchLoadsOlderHistoryAndTheEditorRoundTrip(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir, bin, env := setup(t)
	data := filepath.Join(dir, "host")
	addr := freeAddr(t)
	startHost(t, bin, addr, data, env)
	editor := filepath.Join(dir, "editor.sh")
	// The editor adds to the draft's line, before the file's final
	// newline, as a person typing at its end would.
	if err := os.WriteFile(editor, []byte("#!/bin/sh\nsed -i 's/$/ and then edited in the editor/' \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tm := startTerm(t, dir, env, fmt.Sprintf("env VISUAL=%s %s attach ws://%s --data %s --tail 4 --theme dark --log %s",
		editor, bin, addr, data, filepath.Join(dir, "client.log")))
	tm.waitText("Sessions on " + addr)
	tm.keys("Enter")
	s := tm.waitFor("the session's newest items", func(s string) bool {
		return strings.Contains(s, "Write a prompt") && strings.Contains(s, "idle")
	})
	if strings.Contains(s, "Give me a tour of this project") {
		t.Fatalf("the first prompt is already on screen; the test needs it unloaded:\n%s", s)
	}

	// Search for the first prompt: not loaded, so N pages older history in.
	tm.keys("C-f")
	tm.typeText("tour of this project")
	tm.keys("Enter")
	for i := 0; ; i++ {
		s = tm.screen()
		if strings.Contains(s, "Give me a tour of this project") {
			break
		}
		if i > 200 {
			t.Fatalf("the search never reached the first prompt; screen:\n%s", s)
		}
		tm.keys("N")
		tm.waitFor("the search to settle", func(s string) bool { return !strings.Contains(s, "searching…") })
	}
	tm.keys("Escape") // ends the search; the selection stays in the transcript
	tm.waitFor("the search to end", func(s string) bool { return !strings.Contains(s, "/ tour of this project") })

	// The editor round trip, from the composer.
	tm.keys("i")
	tm.waitFor("the composer", func(s string) bool {
		return !strings.Contains(s, "transcript focused") && !strings.Contains(s, "/ tour of this project")
	})
	tm.typeText("write this")
	tm.waitText("› write this")
	tm.keys("C-g")
	tm.waitText("write this and then edited in the editor")
	tm.keys("Enter")
	tm.waitFor("the edited prompt's answer", func(s string) bool {
		return strings.Contains(s, "That is all for now.") && strings.Contains(s, "edited in the editor") && strings.Contains(s, "idle")
	})
	tm.keys("C-c", "C-c", "C-c")
	tm.waitText("LOOKOUT-EXITED 0")
}
