package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

// An answer past 1 MiB streamed by a real host shows cut, with the note
// right under where it stops: the host's cut ("truncated by host"), and,
// from a host whose field bound was raised past the client's (it sends
// more than the protocol allows), the client's own ("cut by Lookout").
func TestCutAnswersSaySoOnScreen(t *testing.T) {
	for _, tc := range []struct {
		name   string
		bound  int // the host's Options.FieldBound
		length int
		note   string
	}{
		{"cut by the host", 0, host.TextBound + 100<<10, "⚠ text truncated by host"},
		{"cut by the client", 2 << 20, host.TextBound + 300<<10, "⚠ text cut by Lookout at 1 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answer := hosttest.LongAnswer(tc.length)
			agent := hosttest.ScriptAgent{"huge": func(_ context.Context, t *host.Turn) error {
				return hosttest.StreamItem(t, model.KindAgentMessage, map[string]any{"text": ""}, "text", answer, 64<<10)
			}}
			h := hosttest.Start(t, host.Options{Ephemeral: true, AgentImpl: agent, FieldBound: tc.bound})
			rc := hosttest.Dial(t, h)
			var created struct {
				SessionID string `json:"sessionId"`
			}
			rc.MustCall(t, "session/create", map[string]any{"title": "cut"}, &created)
			rc.Close()
			c, _ := runSource(t, sync.Options{URL: h.URL(), Token: h.Token(), SessionID: created.SessionID, CacheDir: "-"})
			cid := c.Submit("huge")
			waitSource(t, c, "the answer", func(p sync.Picture) bool {
				_, settled := c.Settlement(cid)
				return settled && p.View.ActiveTurn == nil
			})
			d := newDriver(t, 100, 40, Options{Source: c})
			d.keys("end")
			paint(t, d, c, "the note", func() bool { return d.lineOf(tc.note) >= 0 })
			// The last section of the text kept is drawn above the note.
			kept := answer[:host.TextBound]
			last := kept[strings.LastIndex(kept, "## Section ")+3:]
			last = last[:strings.IndexByte(last, '\n')]
			if at := d.lineOf(last); at < 0 || at > d.lineOf(tc.note) {
				t.Fatalf("%q (the kept text's last heading) is not above the note:\n%s", last, d.screen())
			}
		})
	}
}
