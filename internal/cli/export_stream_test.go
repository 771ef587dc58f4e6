package cli

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/render"
	"github.com/lookout-sh/lookout/termtext"
)

// lookout export streams a session out as it folds it, and prints exactly
// what folding the whole session at once gives: the canonical encoding,
// or the markdown transcript.
func TestExportStreamsWhatTheWholeFoldGives(t *testing.T) {
	cases := []struct {
		name    string
		session func() *sessionEvents
	}{
		{"a settled session", func() *sessionEvents { return benchSession(1000) }},
		{"an open item holds back what follows it", func() *sessionEvents {
			e := benchSession(300)
			e.add(model.MethodTurnStarted, `"turnId":"TX","startedAt":"2026-11-30T09:00:00Z"`)
			pos := int64(len(e.events) + 1)
			e.add(model.MethodItemStarted, agentMessage(900_000, "TX", pos, 1, "inProgress", "still streaming"))
			for i := range 700 {
				e.add(model.MethodItemCompleted, agentMessage(900_001+i, "TX", int64(len(e.events)+1), 1, "completed", fmt.Sprint("after ", i)))
			}
			e.add(model.MethodItemCompleted, agentMessage(900_000, "TX", pos, 2, "completed", "done at last"))
			return e
		}},
		{"late revisions of items already written out", func() *sessionEvents {
			e := benchSession(1000)
			// Item 3 (position 5) gets a higher revision; item 4 one no higher
			// one (ignored); an item never seen arrives with position 5.
			e.add(model.MethodItemUpdated, agentMessage(3, "T000000", 5, 2, "completed", "revised long after"))
			e.add(model.MethodItemUpdated, agentMessage(4, "T000000", 6, 1, "completed", "stale"))
			e.add(model.MethodItemCompleted, agentMessage(999_999, "T000000", 5, 1, "completed", "a gap filled late"))
			e.add(model.MethodTurnStarted, `"turnId":"TY","startedAt":"2026-11-30T09:00:00Z"`)
			return e
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := c.session()
			whole := model.NewState(e.sid)
			for _, el := range e.events {
				ev, err := model.DecodeNotification(el.Method, el.Params)
				if err != nil {
					t.Fatal(err)
				}
				if err := whole.Apply(ev); err != nil {
					t.Fatal(err)
				}
			}
			h := newPageHost(t, e)
			for format, want := range map[string][]byte{
				"json":     append(termtext.JSON(whole.Encode()), '\n'),
				"markdown": []byte(render.MarkdownTranscript(whole.View())),
			} {
				root := newRootCmd()
				var out, errOut bytes.Buffer
				root.SetOut(&out)
				root.SetErr(&errOut)
				root.SetArgs([]string{"export", h.URL(), "--token=x", "--session", e.sid, "--format", format})
				if err := root.ExecuteContext(context.Background()); err != nil {
					t.Fatalf("%s: %v\n%s", format, err, errOut.String())
				}
				if !bytes.Equal(out.Bytes(), want) {
					t.Fatalf("%s export differs from the whole fold's (%d bytes, want %d):\n%s", format, out.Len(), len(want), firstDiff(out.Bytes(), want))
				}
			}
		})
	}
}

// firstDiff shows where got and want part.
func firstDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(0, i-200)
	return fmt.Sprintf("at byte %d:\n got …%s\nwant …%s", i, got[lo:min(len(got), i+200)], want[lo:min(len(want), i+200)])
}

// When the client folds an epoch from its start again (the host's history
// was replaced), the export starts over: what it wrote out of the old
// epoch is gone.
func TestExportStreamStartsOverWithANewEpoch(t *testing.T) {
	decode := func(e *sessionEvents) []*model.Event {
		var evs []*model.Event
		for _, el := range e.events {
			ev, err := model.DecodeNotification(el.Method, el.Params)
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, ev)
		}
		return evs
	}
	old, fresh := benchSession(700), benchSession(300)
	fresh.events = fresh.events[:0]
	fresh.add(model.MethodSessionState, `"title":"the new epoch"`)
	for i := range 300 {
		fresh.add(model.MethodItemCompleted, agentMessage(i, "T", int64(len(fresh.events)+1), 1, "completed", fmt.Sprint("new ", i)))
	}
	x, err := newExportStream(old.sid, "json")
	if err != nil {
		t.Fatal(err)
	}
	defer x.close()
	for _, ev := range decode(old) {
		x.fold(ev)
	}
	if x.spilled == 0 {
		t.Fatal("the old epoch spilled nothing: the test does not test a restart")
	}
	whole := model.NewState(fresh.sid)
	for _, ev := range decode(fresh) {
		x.fold(ev)
		if err := whole.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if err := x.finish(&out); err != nil {
		t.Fatal(err)
	}
	if want := append(whole.Encode(), '\n'); !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("export after a new epoch differs from the new epoch's fold:\n%s", firstDiff(out.Bytes(), want))
	}
}

// An item the client cut at its bound (a delta its fold cut, passed on
// with Event.Cut) says so in the export: the markdown note after its
// text, and in the JSON a model.CutMember beside the item's members.
func TestExportSaysWhatTheClientCut(t *testing.T) {
	started, err := model.DecodeNotification(model.MethodItemStarted,
		[]byte(`{"sessionId":"s","viewCursor":"v:s:1","prevCursor":null,"item":{"itemId":"m","kind":"agentMessage","turnId":"T","revision":1,"status":"inProgress","position":1,"text":""}}`))
	if err != nil {
		t.Fatal(err)
	}
	cutDelta := &model.Event{Method: model.MethodItemDelta, SessionID: "s", Seq: 2, ItemID: "m", Field: "text", Delta: "kept text",
		Cut: &model.ItemCut{Fields: []string{"text"}, FieldBound: 1 << 20}}
	for format, want := range map[string]string{
		"markdown": "kept text\n\n[text cut by Lookout at 1 MiB: the host sent more than the protocol allows]",
		"json":     `"cutByLookout":{"fieldBound":1048576,"fields":["text"]}`,
	} {
		x, err := newExportStream("s", format)
		if err != nil {
			t.Fatal(err)
		}
		x.fold(started)
		x.fold(cutDelta)
		var out bytes.Buffer
		if err := x.finish(&out); err != nil {
			t.Fatal(err)
		}
		x.close()
		if !bytes.Contains(out.Bytes(), []byte(want)) {
			t.Errorf("%s export lacks %s:\n%s", format, want, out.Bytes())
		}
	}
}
