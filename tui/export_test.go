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
