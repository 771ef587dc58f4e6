package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestExportName(t *testing.T) {
	now := time.Date(2026, 1, 2, 15, 4, 0, 0, time.UTC)
	cases := []struct {
		id   string
		n    int
		want string
	}{
		{"s1", 1, "lookout-s1-20260102-1504.md"},
		{"s1", 2, "lookout-s1-20260102-1504-2.md"},
		{"../etc/passwd", 1, "lookout-___etc_passwd-20260102-1504.md"},
		{"", 1, "lookout-session-20260102-1504.md"},
		{"\x1b]0;x\x07", 1, "lookout-__0_x_-20260102-1504.md"},
		{strings.Repeat("a", 60), 1, "lookout-" + strings.Repeat("a", 40) + "-20260102-1504.md"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.id, " n=", c.n), func(t *testing.T) {
			if got := exportName(c.id, now, c.n); got != c.want {
				t.Errorf("exportName(%q, %d) = %q, want %q", c.id, c.n, got, c.want)
			}
		})
	}
}

// w writes the markdown transcript to the current directory and says
// where; a second export in the same minute gets a new name.
func TestExportWritesTheTranscript(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	f := newFake(t)
	longSession(f, 1, 3)
	d := newDriver(t, 120, 20, Options{Source: f})
	d.keys("tab", "w")
	d.wantScreen("exported to " + dir)
	d.keys("alt+w")
	names, _ := filepath.Glob(filepath.Join(dir, "lookout-*.md"))
	if len(names) != 2 {
		t.Fatalf("files %v, want two", names)
	}
	b, err := os.ReadFile(names[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## User\n\nquestion 1\n", "## Agent\n\nanswer 3\n"} {
		if !strings.Contains(string(b), want) {
			t.Fatalf("export lacks %q:\n%s", want, b)
		}
	}
}

// At 80 columns the export's whole path is on screen (it used to be cut
// by the status bar): a notice too long for the status line takes its own
// lines above it.
func TestExportPathIsShownWholeAt80Columns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a-rather-long-directory-name", "that-goes-on")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	f := newFake(t)
	longSession(f, 1, 3)
	d := newDriver(t, 80, 24, Options{Source: f, SessionID: "01a2346f-7e64-7c4c-ad63-0d7732e46c9c"})
	d.keys("tab", "w")
	names := waitGlob(t, filepath.Join(dir, "lookout-*.md"))
	d.pull()
	flat := strings.Join(strings.Fields(strings.ReplaceAll(d.screen(), "\n", "")), "")
	if want := "exportedto" + names[0]; !strings.Contains(flat, want) {
		t.Fatalf("the screen lacks the whole path %s:\n%s", names[0], d.screen())
	}
}

func waitGlob(t *testing.T, pattern string) []string {
	t.Helper()
	for range 200 {
		if names, _ := filepath.Glob(pattern); len(names) > 0 {
			return names
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("nothing matches %s", pattern)
	return nil
}
