package host_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

type listAnswer struct {
	Sessions []struct {
		SessionID string `json:"sessionId"`
		Title     string `json:"title"`
	} `json:"sessions"`
	HasMore    bool    `json:"hasMore"`
	NextCursor *string `json:"nextCursor"`
}

// 150 sessions with 60 KB titles used to make one session/list answer of
// 9 MB, beyond any client's frame limit. Titles are now cut at TitleBound,
// and the list pages.
func TestSessionListPagesAndTitlesAreBounded(t *testing.T) {
	h := hosttest.Start(t, host.Options{Ephemeral: true})
	c := hosttest.Dial(t, h)
	long := strings.Repeat("é", 30<<10) // 60 KB, two bytes a rune: cuts must keep it valid
	var created []string
	for i := range 150 {
		var cr struct{ SessionID string }
		c.MustCall(t, "session/create", map[string]any{"title": fmt.Sprint(i, " ", long)}, &cr)
		created = append(created, cr.SessionID)
	}
	// The old call, without params, is bounded: the first page.
	raw, rerr, err := c.Call("session/list", nil)
	if err != nil || rerr != nil {
		t.Fatal(err, rerr)
	}
	var first listAnswer
	if err := json.Unmarshal(raw, &first); err != nil {
		t.Fatal(err)
	}
	if len(first.Sessions) != host.DefaultListLimit || !first.HasMore || first.NextCursor == nil || len(raw) > host.PageBytes {
		t.Fatalf("unpaged call: %d sessions, hasMore %v, %d bytes", len(first.Sessions), first.HasMore, len(raw))
	}
	for _, s := range first.Sessions {
		if len(s.Title) > host.TitleBound || !utf8.ValidString(s.Title) || !strings.HasPrefix(long[:100], strings.SplitN(s.Title, " ", 2)[1][:50]) {
			t.Fatalf("title of %d bytes (valid %v)", len(s.Title), utf8.ValidString(s.Title))
		}
	}
	// Paging walks every session once, in creation order.
	var got []string
	cursor := ""
	for pages := 0; ; pages++ {
		p := map[string]any{"limit": 7}
		if cursor != "" {
			p["cursor"] = cursor
		}
		var a listAnswer
		c.MustCall(t, "session/list", p, &a)
		if len(a.Sessions) > 7 {
			t.Fatalf("page of %d", len(a.Sessions))
		}
		for _, s := range a.Sessions {
			got = append(got, s.SessionID)
		}
		if !a.HasMore {
			if a.NextCursor != nil {
				t.Fatalf("last page has nextCursor %q", *a.NextCursor)
			}
			break
		}
		cursor = *a.NextCursor
	}
	if strings.Join(got, ",") != strings.Join(created, ",") {
		t.Fatalf("paged %d sessions, created %d (or another order)", len(got), len(created))
	}
	for _, bad := range []any{"v:x:1", "l:no-such-session", 7} {
		if e := rpcCode(t, c, "session/list", map[string]any{"cursor": bad}); e == nil || e.Code != model.CodeInvalidParams {
			t.Fatalf("cursor %v: %+v", bad, e)
		}
	}
	if e := rpcCode(t, c, "session/list", map[string]any{"limit": 0}); e == nil || e.Code != model.CodeInvalidParams {
		t.Fatalf("limit 0: %+v", e)
	}
}

func TestSessionCreationIsBounded(t *testing.T) {
	h := hosttest.Start(t, host.Options{Ephemeral: true, MaxSessions: 3, DemoSession: true})
	c := hosttest.Dial(t, h)
	for range 2 { // the demo session is the first
		c.MustCall(t, "session/create", nil, nil)
	}
	e := rpcCode(t, c, "session/create", nil)
	var data struct{ Reason string }
	if e == nil || e.Code != model.CodeBackpressured || json.Unmarshal(e.Data, &data) != nil || data.Reason != "tooManySessions" {
		t.Fatalf("session beyond the bound: %+v", e)
	}
	if _, err := h.CreateSession(""); err == nil {
		t.Fatal("CreateSession beyond the bound succeeded")
	}
}

// A client that keeps submitting rejected prompts does not grow the host:
// a session remembers the newest MaxRejections, also across a restart.
func TestRejectionsAreBounded(t *testing.T) {
	dir := t.TempDir()
	h := hosttest.Start(t, host.Options{DataDir: dir})
	c := hosttest.Dial(t, h)
	sid, _, _ := newSession(t, c)
	n := host.MaxRejections + 5
	for i := range n {
		if e := rpcCode(t, c, "turn/submit", map[string]any{"sessionId": sid, "commandId": fmt.Sprint("bad-", i), "text": ""}); e == nil || e.Code != model.CodeRejected {
			t.Fatalf("empty prompt %d: %+v", i, e)
		}
	}
	check := func(c *hosttest.Client) {
		t.Helper()
		for i := range n {
			r := replay(t, c, sid, fmt.Sprint("bad-", i))
			want := "settled"
			if i < n-host.MaxRejections {
				want = "unknown"
			}
			if r.State != want {
				t.Fatalf("replay of rejection %d: %s, want %s", i, r.State, want)
			}
		}
	}
	check(c)
	h.Close()
	h2 := hosttest.Start(t, host.Options{DataDir: dir})
	check(hosttest.Dial(t, h2))
}
