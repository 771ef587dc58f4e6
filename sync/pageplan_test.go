package sync

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

// durableEl is a page element: a durable item event of session sid at seq
// whose prevCursor is prev (0: null).
func durableEl(sid string, seq, prev int64) string {
	pc := "null"
	if prev > 0 {
		pc = fmt.Sprintf("%q", model.FormatCursor(sid, prev))
	}
	return fmt.Sprintf(`{"method":"item/completed","params":{"sessionId":%q,"viewCursor":%q,"prevCursor":%s,`+
		`"item":{"itemId":"i%d","kind":"agentMessage","turnId":"t1","revision":1,"status":"completed","recordedAt":"x","text":"t"}}}`,
		sid, model.FormatCursor(sid, seq), pc, seq)
}

// deltaEl is a page element: an ephemeral delta of s1 at seq.
func deltaEl(seq int64) string {
	return fmt.Sprintf(`{"method":"item/delta","params":{"sessionId":"s1","viewCursor":"v:s1:%d","itemId":"i1","delta":"x"}}`, seq)
}

// badEl is a page element that cannot be decoded.
const badEl = `{"method":"item/completed","params":{"sessionId":"s1"}}`

// pageJSON is a view/page answer.
func pageJSON(epoch string, hasNewer, hasOlder bool, end int64, els ...string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"epoch":%q,"events":[%s],"startCursor":"v:s1:0","endCursor":"v:s1:%d","hasNewer":%v,"hasOlder":%v}`,
		epoch, strings.Join(els, ","), end, hasNewer, hasOlder))
}

// noteText is a plan's note as the tables spell it: a decoder's error
// (model's wording) as "<what>: (decode error)".
func noteText(n string) string {
	for _, what := range []string{"page element: ", "history element: ", "start element: "} {
		if strings.HasPrefix(n, what+string(model.UpstreamFrameError)) {
			return what + "(decode error)"
		}
	}
	return n
}

// describeAfter writes a plan as one line: its steps, then what follows.
func describeAfter(p afterPlan) string {
	var b strings.Builder
	if p.Accepted {
		b.WriteString("accepted; ")
	}
	for _, s := range p.Steps {
		if s.Note != "" {
			fmt.Fprintf(&b, "note %q; ", noteText(s.Note))
		}
		if s.Fold != nil {
			fmt.Fprintf(&b, "fold %d; ", s.Fold.Seq)
		}
	}
	b.WriteString(p.Next.String())
	if p.Next == afterDrain {
		fmt.Fprintf(&b, " to %d", p.HeadSeq)
	}
	if p.Persistent {
		b.WriteString(" (refusal)")
	}
	if p.Why != "" {
		fmt.Fprintf(&b, ": %s", p.Why)
	}
	return b.String()
}

func TestPlanAfterPage(t *testing.T) {
	req := pageRequest{Epoch: "e1", Cursor: "v:s1:10", CursorSeq: 10, Gen: 3}
	held := heldRange{SessionID: "s1", Epoch: "e1", Gen: 3, Cursor: 11, DurableCursor: 10, Authority: true}
	replaced := held
	replaced.Gen = 4
	cases := []struct {
		name       string
		res        json.RawMessage
		rerr       *model.RPCError
		held       heldRange
		catchingUp bool
		want       string
	}{
		{"stale cursor (-32020)", nil, &model.RPCError{Code: model.CodeStaleCursor, Message: "gone"}, held, true,
			"resync: the host no longer holds this cursor (-32020)"},
		{"another error answer", nil, &model.RPCError{Code: -32603, Message: "boom"}, held, true,
			"drop: view/page after failed: boom"},
		{"malformed answer", json.RawMessage(`[1]`), nil, held, true,
			"drop (refusal): malformed view/page result: not a JSON object"},
		{"asked before a replacement, still catching up", pageJSON("e1", false, false, 12, durableEl("s1", 12, 10)), nil, replaced, true,
			"again"},
		{"asked before a replacement, no longer catching up", pageJSON("e1", false, false, 12, durableEl("s1", 12, 10)), nil, replaced, false,
			"nothing"},
		{"the host moved to another epoch", pageJSON("e2", false, false, 12), nil, held, true,
			"resync: the host's epoch changed during catch-up"},
		{"contiguous, more to come", pageJSON("e1", true, false, 14, durableEl("s1", 12, 10), durableEl("s1", 14, 12)), nil, held, true,
			"accepted; fold 12; fold 14; again"},
		{"overlap drops, then the head", pageJSON("e1", false, false, 15, durableEl("s1", 9, 8), durableEl("s1", 10, 9), durableEl("s1", 13, 10), deltaEl(15)), nil, held, true,
			"accepted; fold 13; fold 15; drain to 15"},
		{"empty page at the head", pageJSON("e1", false, false, 11), nil, held, true,
			"accepted; drain to 11"},
		{"a gap after a good event", pageJSON("e1", true, false, 20, durableEl("s1", 12, 10), durableEl("s1", 20, 18)), nil, held, true,
			`accepted; fold 12; note "view/page after is not contiguous at seq 20"; resync: a page did not continue the held range`},
		{"hasNewer with no events", pageJSON("e1", true, false, 10), nil, held, true,
			"accepted; drop (refusal): view/page says hasNewer but sent no events"},
		{"ephemeral events gate on the cursor, never gap", pageJSON("e1", false, false, 30, deltaEl(11), deltaEl(12), deltaEl(30)), nil, held, true,
			"accepted; fold 12; fold 30; drain to 30"},
		{"an undecodable element is noted and stepped over", pageJSON("e1", false, false, 12, badEl, durableEl("s1", 12, 10)), nil, held, true,
			`accepted; note "page element: (decode error)"; fold 12; drain to 12`},
		// The fold refuses another session's event and does not move the
		// durable cursor for it, so the next event reveals the gap.
		{"another session's event does not move the cursor", pageJSON("e1", false, false, 13, durableEl("s2", 11, 10), durableEl("s1", 12, 11)), nil, held, true,
			`accepted; fold 11; note "view/page after is not contiguous at seq 12"; resync: a page did not continue the held range`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := describeAfter(planAfterPage(req, c.res, c.rerr, c.held, c.catchingUp))
			if got != c.want {
				t.Errorf("plan\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

func describeBefore(p beforePlan) string {
	var b strings.Builder
	for _, n := range p.Notes {
		fmt.Fprintf(&b, "note %q; ", noteText(n))
	}
	b.WriteString(p.Next.String())
	if p.Next == beforeFold {
		fmt.Fprintf(&b, " %d events, hasOlder %v", len(p.Events), p.HasOlder)
	}
	if p.Why != "" {
		fmt.Fprintf(&b, ": %s", p.Why)
	}
	return b.String()
}

func TestPlanBeforePage(t *testing.T) {
	req := pageRequest{Epoch: "e1", Cursor: "v:s1:40", CursorSeq: 40, Gen: 2}
	held := heldRange{SessionID: "s1", Epoch: "e1", Gen: 2, Cursor: 90, DurableCursor: 90, Authority: true}
	other := held
	other.Epoch = "e2"
	cases := []struct {
		name  string
		res   json.RawMessage
		rerr  *model.RPCError
		held  heldRange
		start string
		want  string
	}{
		{"stale cursor (-32020)", nil, &model.RPCError{Code: model.CodeStaleCursor, Message: "gone"}, held, "v:s1:40",
			"resync: history page refused as stale (-32020)"},
		{"another error answer", nil, &model.RPCError{Code: -32603, Message: "boom"}, held, "v:s1:40",
			"failed: view/page before failed: boom"},
		{"malformed answer", json.RawMessage(`"x"`), nil, held, "v:s1:40",
			"failed: malformed view/page before result: not a JSON object"},
		{"the history start moved", pageJSON("e1", false, true, 0, durableEl("s1", 3, 2)), nil, held, "v:s1:20",
			"stale"},
		{"the state is in another epoch now", pageJSON("e1", false, true, 0, durableEl("s1", 3, 2)), nil, other, "v:s1:40",
			"stale"},
		{"the host answers from another epoch", pageJSON("e9", false, true, 0), nil, held, "v:s1:40",
			"resync: the host's epoch changed"},
		{"folds what decodes", pageJSON("e1", false, true, 0, durableEl("s1", 3, 2), badEl, durableEl("s1", 5, 4)), nil, held, "v:s1:40",
			`note "history element: (decode error)"; fold 2 events, hasOlder true`},
		{"the start of the session", pageJSON("e1", false, false, 0, durableEl("s1", 1, 0)), nil, held, "v:s1:40",
			"fold 1 events, hasOlder false"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := describeBefore(planBeforePage(req, c.res, c.rerr, c.held, c.start))
			if got != c.want {
				t.Errorf("plan\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

func describeSubscribe(p subscribePlan) string {
	var b strings.Builder
	if p.Delivery != "" {
		fmt.Fprintf(&b, "%s in %s; ", p.Delivery, p.Epoch)
	}
	b.WriteString(p.Next.String())
	if p.Snapshot != nil {
		fmt.Fprintf(&b, " %d items", len(p.Snapshot.Items))
	}
	if p.ReplaceEmpty {
		b.WriteString(" from an empty state")
	}
	if p.MarkTerminalUnknown {
		b.WriteString(", open items terminal-unknown")
	}
	if p.Persistent {
		b.WriteString(" (refusal)")
	}
	if p.Why != "" {
		fmt.Fprintf(&b, ": %s", p.Why)
	}
	return b.String()
}

func TestPlanSubscribe(t *testing.T) {
	held := heldRange{SessionID: "s1", Epoch: "e1", Gen: 1, Cursor: 10, DurableCursor: 10, Authority: true}
	noAuthority := held
	noAuthority.Authority = false
	pastDelta := held // folded a delta at 12 after the durable event at 10
	pastDelta.Cursor = 12
	snapshot := json.RawMessage(`{"epoch":"e2","head":"v:s1:30","delivery":"snapshot","snapshot":{"items":[],"cursor":"v:s1:30","durableCursor":"v:s1:30"}}`)
	sameEpochSnapshot := json.RawMessage(`{"epoch":"e1","head":"v:s1:30","delivery":"snapshot","snapshot":{"items":[],"cursor":"v:s1:30","durableCursor":"v:s1:30"}}`)
	suffix := func(epoch string, head int64) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`{"epoch":%q,"head":"v:s1:%d","delivery":"suffix"}`, epoch, head))
	}
	unknown := &model.RPCError{Code: model.CodeUnknownSession, Message: "no such session"}
	cases := []struct {
		name       string
		res        json.RawMessage
		rerr       *model.RPCError
		held       heldRange
		durability string
		replay     bool
		want       string
	}{
		{"unknown session on a durable host", nil, unknown, held, "durable", false,
			"missing: the host does not know session s1"},
		{"unknown session on an ephemeral host", nil, unknown, held, "ephemeral", false,
			"missing, open items terminal-unknown: the host does not know session s1"},
		{"another error answer", nil, &model.RPCError{Code: model.CodeBackpressured, Message: "busy"}, held, "durable", false,
			"drop: session/subscribe failed: busy"},
		{"an answer without an epoch", json.RawMessage(`{"delivery":"suffix"}`), nil, held, "durable", false,
			"drop (refusal): malformed session/subscribe result"},
		{"a snapshot", snapshot, nil, held, "durable", false,
			"snapshot in e2; load 0 items"},
		{"snapshot delivery without a snapshot", json.RawMessage(`{"epoch":"e2","head":"v:s1:3","delivery":"snapshot"}`), nil, held, "durable", false,
			"snapshot in e2; drop (refusal): snapshot delivery without a snapshot"},
		{"replay, another epoch: fold it from its start", snapshot, nil, held, "durable", true,
			"snapshot in e2; catch up from an empty state"},
		{"replay, the held epoch without authority: from its start", sameEpochSnapshot, nil, noAuthority, "durable", true,
			"snapshot in e1; catch up from an empty state"},
		{"replay, the held epoch with authority: from its cursor", sameEpochSnapshot, nil, held, "durable", true,
			"snapshot in e1; catch up"},
		{"suffix behind the head", suffix("e1", 30), nil, held, "durable", false,
			"suffix in e1; catch up"},
		{"suffix at the head", suffix("e1", 10), nil, held, "durable", false,
			"suffix in e1; live"},
		{"suffix at the head, the cursor on an ephemeral event: a durable one before it may be lost", suffix("e1", 12), nil, pastDelta, "durable", false,
			"suffix in e1; catch up"},
		{"suffix from another epoch", suffix("e2", 30), nil, held, "durable", false,
			"suffix in e2; resync: suffix delivery from another epoch"},
		{"an unknown delivery", json.RawMessage(`{"epoch":"e1","delivery":"telepathy"}`), nil, held, "durable", false,
			`drop (refusal): unknown subscribe delivery "telepathy"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := describeSubscribe(planSubscribe(c.res, c.rerr, c.held, c.durability, c.replay))
			if got != c.want {
				t.Errorf("plan\n got %s\nwant %s", got, c.want)
			}
		})
	}
}
