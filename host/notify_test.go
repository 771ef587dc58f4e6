package host_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
	lsync "github.com/lookout-sh/lookout/sync"
)

// TestHostNotifiesWhenNobodyLooks: with --notify-cmd and --notify-url,
// an approval that waits in a session nobody looks at runs the command
// (the notice in its environment, sanitised) and posts the webhook
// (ntfy's form); in a session a subscriber reported focused, neither.
func TestHostNotifiesWhenNobodyLooks(t *testing.T) {
	type post struct{ title, tags, body string }
	posts := make(chan post, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		posts <- post{r.Header.Get("Title"), r.Header.Get("Tags"), string(b)}
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "notices")
	h := hosttest.Start(t, host.Options{
		NotifyCmd: `printf '%s|%s|%s|%s|%s\n' "$LOOKOUT_SESSION" "$LOOKOUT_REASON" "$LOOKOUT_TITLE" "$LOOKOUT_TEXT" "$LOOKOUT_COUNT" >> ` + out,
		NotifyURL: srv.URL,
	})
	c := hosttest.Dial(t, h)

	// A session someone looks at: nothing goes out.
	watched, _, stw := newSession(t, c)
	c.MustCall(t, "session/focus", map[string]any{"sessionId": watched, "focused": true}, nil)
	if _, _, err := c.Submit(watched, "w1", "run a tool"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.WaitEvent(stw, func(ev *model.Event) bool { return ev.Method == model.MethodApprovalRequested }); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-posts:
		t.Fatalf("a notice for a session its user looks at: %+v", p)
	case <-time.After(time.Second):
	}

	// A session nobody looks at, titled with an escape sequence.
	var created struct {
		SessionID string `json:"sessionId"`
	}
	c.MustCall(t, "session/create", map[string]any{"title": "fix \x1b]0;owned\x07the build"}, &created)
	sid := created.SessionID
	st, _ := snapshotState(t, c, sid)
	c.MustCall(t, "session/focus", map[string]any{"sessionId": watched, "focused": false}, nil)
	if _, _, err := c.Submit(sid, "n1", "run a tool"); err != nil {
		t.Fatal(err)
	}
	asked, _, err := c.WaitEvent(st, func(ev *model.Event) bool { return ev.Method == model.MethodApprovalRequested })
	if err != nil {
		t.Fatal(err)
	}
	var p post
	select {
	case p = <-posts:
	case <-time.After(10 * time.Second):
		t.Fatal("no webhook post for a waiting approval")
	}
	if p.tags != "approval" || !strings.Contains(p.title, "fix the build") || strings.ContainsAny(p.title+p.body, "\x1b\x07") || p.body == "" {
		t.Errorf("webhook post %+v", p)
	}
	var line string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(out)
		if line = strings.TrimSpace(string(b)); line != "" {
			break
		}
	}
	fields := strings.Split(line, "|")
	if len(fields) != 5 || fields[0] != sid || fields[1] != "approval" || fields[2] != "fix the build" || fields[4] != "1" {
		t.Fatalf("the notify command saw %q, want %s|approval|fix the build|…|1", line, sid)
	}
	if strings.ContainsAny(line, "\x1b\x07") {
		t.Fatalf("the notify command saw raw controls: %q", line)
	}
	c.MustCall(t, "approval/respond", map[string]any{"sessionId": sid, "approvalId": asked.ApprovalID, "decision": "approve"}, nil)

	if e := rpcCode(t, c, "session/focus", map[string]any{"sessionId": sid}); e == nil || e.Code != model.CodeInvalidParams {
		t.Errorf("session/focus without focused: %+v, want invalid params", e)
	}
	if e := rpcCode(t, c, "session/focus", map[string]any{"sessionId": "nope", "focused": true}); e == nil || e.Code != model.CodeUnknownSession {
		t.Errorf("session/focus of an unknown session: %+v, want unknown session", e)
	}
}

// TestLookingClientSuppressesNotices: the whole path of "nobody is
// looking": a sync client (as lookout attach runs it) that says its user
// looks at the session keeps the host from notifying; once it says the
// user left, the next approval is notified.
func TestLookingClientSuppressesNotices(t *testing.T) {
	out := filepath.Join(t.TempDir(), "notices")
	h := hosttest.Start(t, host.Options{NotifyCmd: `printf '%s\n' "$LOOKOUT_REASON" >> ` + out})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	ui, err := lsync.New(lsync.Options{URL: h.URL(), Token: h.Token(), SessionID: sid, CacheDir: "-", HostsFile: "-", ClientName: "looking"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { defer close(ran); _ = ui.Run(ctx) }()
	defer func() { cancel(); <-ran }()
	for deadline := time.Now().Add(hosttest.Timeout); ui.Current().Freshness.State != lsync.Live; {
		if time.Now().After(deadline) {
			t.Fatal("the client never went live")
		}
		time.Sleep(10 * time.Millisecond)
	}
	notices := func() string { b, _ := os.ReadFile(out); return string(b) }
	approve := func(cid string) {
		t.Helper()
		_, turn, err := c.Submit(sid, cid, "run a tool")
		if err != nil {
			t.Fatal(err)
		}
		asked, _, err := c.WaitEvent(st, func(ev *model.Event) bool { return ev.Method == model.MethodApprovalRequested })
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second) // a notice would have gone out by now
		c.MustCall(t, "approval/respond", map[string]any{"sessionId": sid, "approvalId": asked.ApprovalID, "decision": "approve"}, nil)
		if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(turn)); err != nil {
			t.Fatal(err)
		}
	}

	ui.SetLooking(true)
	time.Sleep(300 * time.Millisecond) // session/focus reaches the host
	approve("p1")
	if got := notices(); got != "" {
		t.Fatalf("notified while the user looked: %q", got)
	}
	ui.SetLooking(false)
	time.Sleep(300 * time.Millisecond)
	approve("p2")
	if got := notices(); got != "approval\n" {
		t.Fatalf("notices %q once the user left, want one approval", got)
	}
}
