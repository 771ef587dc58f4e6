package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	lsync "github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/tui"
)

// `lookout sessions` lists sessions newest first, the picker's order,
// with human times in aligned columns.
func TestCLISessionsHumanTimesNewestFirstAligned(t *testing.T) {
	h := cliHost(t)
	tok := "--token=" + h.Token()
	for _, title := range []string{"second", "third · 日本語"} {
		time.Sleep(20 * time.Millisecond)
		dialSessionsTitled(t, h.URL(), h.Token(), title)
	}
	out, code := runCLI(t, "sessions", h.URL(), tok)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "SESSION") {
		t.Fatalf("output:\n%s", out)
	}
	if strings.Contains(out, "T") && strings.Contains(out, "Z") && strings.Contains(out, ":00.") || strings.Contains(out, time.Now().UTC().Format("2006-01-02T")) {
		t.Fatalf("raw timestamps:\n%s", out)
	}
	titles := []string{"third · 日本語", "second", "Lookout demo: every kind of item"}
	updated := ansi.StringWidth(lines[0][:strings.Index(lines[0], "UPDATED")])
	title := ansi.StringWidth(lines[0][:strings.Index(lines[0], "TITLE")])
	for i, l := range lines[1:] {
		if !strings.HasSuffix(l, titles[i]) {
			t.Fatalf("line %d is %q, want the session %q (newest first):\n%s", i+1, l, titles[i], out)
		}
		if !strings.Contains(l, "just now") {
			t.Fatalf("line %d has no human time:\n%s", i+1, out)
		}
		if c := ansi.StringWidth(l[:strings.Index(l, "just now")]); c != updated {
			t.Fatalf("UPDATED starts at cell %d in line %d, %d in the header:\n%s", c, i+1, updated, out)
		}
		if c := ansi.StringWidth(l[:strings.LastIndex(l, titles[i])]); c != title {
			t.Fatalf("TITLE starts at cell %d in line %d, %d in the header:\n%s", c, i+1, title, out)
		}
	}

	// The picker lists the same sessions in the same order.
	ss, err := lsync.ListSessions(context.Background(), lsync.Options{URL: h.URL(), Token: h.Token(), HostsFile: "-"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := tui.NewPicker(ss, "h", "dark")
	if err != nil {
		t.Fatal(err)
	}
	p.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	screen := ansi.Strip(p.View().Content)
	at := -1
	for _, ti := range titles {
		i := strings.Index(screen, ti)
		if i <= at {
			t.Fatalf("the picker's order differs from `lookout sessions`:\n%s\n%s", screen, out)
		}
		at = i
	}
}

// dialSessionsTitled creates a session with a title on the host at url.
func dialSessionsTitled(t *testing.T, url, token, title string) string {
	t.Helper()
	id, err := lsync.CreateSession(context.Background(), lsync.Options{URL: url, Token: token, HostsFile: "-"}, title)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestSessionsTableAlignsByCells(t *testing.T) {
	now := time.Date(2026, 3, 11, 14, 30, 0, 0, time.UTC)
	got := sessionsTable([]lsync.SessionInfo{
		{SessionID: "a", Status: "待機中", UpdatedAt: "2026-03-11T14:29:30.5Z", Title: "wide status"},
		{SessionID: "bbbb", Status: "idle", UpdatedAt: "2026-03-10T09:12:00Z", Title: "line\nbreak\x1b[31m"},
		{SessionID: "c", Status: "", UpdatedAt: "", Title: ""},
	}, now)
	want := "SESSION  STATUS  UPDATED          TITLE\n" +
		"a        待機中  just now         wide status\n" +
		"bbbb     idle    yesterday 09:12  line break\n" +
		"c                —\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// An agent that reports a cost gets the table a COST column; a session
// without one leaves its cell empty.
func TestSessionsTableShowsTheCost(t *testing.T) {
	now := time.Date(2026, 3, 11, 14, 30, 0, 0, time.UTC)
	got := sessionsTable([]lsync.SessionInfo{
		{SessionID: "a", Status: "idle", UpdatedAt: "2026-03-11T14:29:30Z", Title: "claude", CostUSD: json.RawMessage(`0.4213`)},
		{SessionID: "bb", Status: "idle", UpdatedAt: "2026-03-11T14:29:30Z", Title: "codex"},
	}, now)
	want := "SESSION  STATUS  UPDATED   COST   TITLE\n" +
		"a        idle    just now  $0.42  claude\n" +
		"bb       idle    just now         codex\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// A fleet host names each session's host: the table gets a HOST column.
func TestSessionsTableShowsTheFleetHost(t *testing.T) {
	now := time.Date(2026, 3, 11, 14, 30, 0, 0, time.UTC)
	got := sessionsTable([]lsync.SessionInfo{
		{SessionID: "a", Status: "running", UpdatedAt: "2026-03-11T14:29:30Z", Title: "on the CI box", Host: "ci-7"},
		{SessionID: "bb", Status: "idle", UpdatedAt: "2026-03-11T14:29:30Z", Title: "on a dev box", Host: "dev\x1b[31m"},
	}, now)
	want := "SESSION  STATUS   HOST  UPDATED   TITLE\n" +
		"a        running  ci-7  just now  on the CI box\n" +
		"bb       idle     dev   just now  on a dev box\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
