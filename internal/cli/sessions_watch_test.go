package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/sync"
)

// lockedBuffer is a bytes.Buffer safe for a writer and a reader.
type lockedBuffer struct {
	mu gosync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestSessionsWatch: `sessions --watch --json` prints the whole list, then
// each change as one JSON line: a new session, its approval, its deletion.
func TestSessionsWatch(t *testing.T) {
	h := cliHost(t)
	tok := "--token=" + h.Token()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var out, errOut lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- watchSessions(ctx, sync.Options{URL: h.URL(), Token: h.Token(), ClientName: "test"}, &out, &errOut, true)
	}()
	changes := func() []sync.SessionsChange {
		var cs []sync.SessionsChange
		for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			var c sync.SessionsChange
			if json.Unmarshal([]byte(l), &c) == nil {
				cs = append(cs, c)
			}
		}
		return cs
	}
	waitFor := func(what string, ok func(sync.SessionsChange) bool) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			for _, c := range changes() {
				if ok(c) {
					return
				}
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("no change %s in:\n%s\nstderr: %s", what, out.String(), errOut.String())
	}
	waitFor("with the whole list", func(c sync.SessionsChange) bool {
		return c.Initial && len(c.Sessions) == 1 && c.Sessions[0].SessionID == h.DefaultSessionID()
	})
	c := hosttest.Dial(t, h)
	var cr struct{ SessionID string }
	c.MustCall(t, "session/create", map[string]any{"title": "watched"}, &cr)
	waitFor("with the new session", func(c sync.SessionsChange) bool {
		return !c.Initial && len(c.Sessions) == 1 && c.Sessions[0].SessionID == cr.SessionID && c.Sessions[0].Title == "watched"
	})
	sent := make(chan int, 1)
	go func() {
		_, code := runCLI(t, "send", h.URL(), "--session", cr.SessionID, tok, "--on-approval", "ask", "run a tool please")
		sent <- code
	}()
	waitFor("where its approval waits", func(c sync.SessionsChange) bool {
		return len(c.Sessions) == 1 && c.Sessions[0].SessionID == cr.SessionID && c.Sessions[0].Needs == "approval"
	})
	if _, code := runCLI(t, "send", h.URL(), "--session", cr.SessionID, tok, "--on-approval", "approve", "and say done"); code != 0 {
		t.Fatalf("the approving send: exit %d", code)
	}
	if code := <-sent; code != 0 {
		t.Fatalf("the first send: exit %d", code)
	}
	c.MustCall(t, "session/delete", map[string]any{"sessionId": cr.SessionID}, nil)
	waitFor("removing it", func(c sync.SessionsChange) bool { return len(c.Removed) == 1 && c.Removed[0] == cr.SessionID })
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("the watch ended with %v", err)
	}
}

func TestChangeLines(t *testing.T) {
	c := sync.SessionsChange{Sessions: []sync.SessionInfo{{SessionID: "s1", Status: "running", Needs: "approval", Title: "fix \x1b[31mit\x1b[0m"}}, Removed: []string{"s2"}}
	got := strings.Join(changeLines(c), "\n")
	if want := "s1\tneeds approval\tfix it\ns2\tgone"; got != want {
		t.Errorf("changeLines = %q, want %q", got, want)
	}
}
