package host

import (
	"strconv"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

// queuedDelta is a delta frame as send queues it.
func queuedDelta(sid, item, field string, seq int64, text string) outMsg {
	ev := &model.Event{Method: model.MethodItemDelta, SessionID: sid, Seq: seq, ItemID: item, Field: field, Delta: text}
	s := &session{id: sid}
	params := deltaParamsForTest(sid, seq, item, field, text)
	return s.outMsgFor(model.MethodItemDelta, params, ev, 1000+seq)
}

func deltaParamsForTest(sid string, seq int64, item, field, text string) []byte {
	p := []byte(`{"sessionId":`)
	p = model.AppendJSONString(p, sid)
	p = append(p, `,"viewCursor":`...)
	p = model.AppendJSONString(p, model.FormatCursor(sid, seq))
	p = append(p, `,"itemId":`...)
	p = model.AppendJSONString(p, item)
	p = append(p, `,"field":`...)
	p = model.AppendJSONString(p, field)
	p = append(p, `,"delta":`...)
	p = model.AppendJSONString(p, text)
	return append(p, '}')
}

func queuedDurable(data string) outMsg { return outMsg{data: []byte(data), kind: kindDurable} }

// sent is what a client makes of a written frame: the delta's item, field,
// text and seq, or the frame itself for anything else.
func sent(t *testing.T, m outMsg) string {
	t.Helper()
	if m.kind != kindDelta {
		return string(m.data)
	}
	f, err := model.ParseFrame(m.data)
	if err != nil {
		t.Fatalf("frame %s: %v", m.data, err)
	}
	ev, err := f.Event()
	if err != nil {
		t.Fatalf("event %s: %v", m.data, err)
	}
	if f.EmittedAtMs != 1000+ev.Seq {
		t.Fatalf("emittedAtMs %d for seq %d, want the last delta's", f.EmittedAtMs, ev.Seq)
	}
	return ev.SessionID + "/" + ev.ItemID + "/" + ev.Field + "@" + strconv.FormatInt(ev.Seq, 10) + "=" + ev.Delta
}

func TestCoalesceDeltas(t *testing.T) {
	long := strings.Repeat("x", maxCoalescedDelta-3)
	for _, c := range []struct {
		name  string
		batch []outMsg
		want  []string
	}{
		{"one delta is kept", []outMsg{queuedDelta("s", "A", "text", 1, "he")},
			[]string{"s/A/text@1=he"}},
		{"a run joins at its last cursor", []outMsg{
			queuedDelta("s", "A", "text", 1, "he"), queuedDelta("s", "A", "text", 2, "llo"), queuedDelta("s", "A", "text", 3, ` "w"`)},
			[]string{`s/A/text@3=hello "w"`}},
		{"another item ends the run", []outMsg{
			queuedDelta("s", "A", "text", 1, "a"), queuedDelta("s", "A", "text", 2, "b"),
			queuedDelta("s", "B", "text", 3, "c"), queuedDelta("s", "B", "text", 4, "d")},
			[]string{"s/A/text@2=ab", "s/B/text@4=cd"}},
		{"another field ends the run", []outMsg{
			queuedDelta("s", "A", "summary.0", 1, "a"), queuedDelta("s", "A", "summary.1", 2, "b")},
			[]string{"s/A/summary.0@1=a", "s/A/summary.1@2=b"}},
		{"another session ends the run", []outMsg{
			queuedDelta("s", "A", "text", 1, "a"), queuedDelta("t", "A", "text", 1, "b")},
			[]string{"s/A/text@1=a", "t/A/text@1=b"}},
		{"any other frame ends the run and keeps its place", []outMsg{
			queuedDelta("s", "A", "text", 1, "a"), queuedDelta("s", "A", "text", 2, "b"),
			queuedDurable("turn"),
			queuedDelta("s", "A", "text", 4, "c"), queuedDelta("s", "A", "text", 5, "d"), queuedDurable("end")},
			[]string{"s/A/text@2=ab", "turn", "s/A/text@5=cd", "end"}},
		{"a run stops at the bound", []outMsg{
			queuedDelta("s", "A", "text", 1, long), queuedDelta("s", "A", "text", 2, "abc"), queuedDelta("s", "A", "text", 3, "d")},
			[]string{"s/A/text@2=" + long + "abc", "s/A/text@3=d"}},
		{"nothing but other frames", []outMsg{queuedDurable("a"), queuedDurable("b")},
			[]string{"a", "b"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := 0
			for _, m := range c.batch {
				before += len(m.data)
			}
			out, saved := coalesceDeltas(c.batch)
			after := 0
			var got []string
			for _, m := range out {
				after += len(m.data)
				got = append(got, sent(t, m))
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Fatalf("sent\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			if saved != before-after {
				t.Fatalf("saved %d bytes, but the batch went from %d to %d", saved, before, after)
			}
		})
	}
}

// A coalesced delta can itself be coalesced again (its part describes it).
func TestCoalescedDeltaJoinsAgain(t *testing.T) {
	first, _ := coalesceDeltas([]outMsg{queuedDelta("s", "A", "text", 1, "a"), queuedDelta("s", "A", "text", 2, "b")})
	again, _ := coalesceDeltas(append(first, queuedDelta("s", "A", "text", 3, "c")))
	if len(again) != 1 || sent(t, again[0]) != "s/A/text@3=abc" {
		t.Fatalf("got %d frames, first %q", len(again), sent(t, again[0]))
	}
}
