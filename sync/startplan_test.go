package sync

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

// startPage is a `before` page answer whose first item is at position
// start.
func startPage(epoch string, start int64, hasNewer, hasOlder bool, els ...string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"epoch":%q,"events":[%s],"startCursor":"v:s1:%d","endCursor":"v:s1:99","hasNewer":%v,"hasOlder":%v}`,
		epoch, strings.Join(els, ","), start, hasNewer, hasOlder))
}

func describeStart(p startPlan) string {
	var b strings.Builder
	for _, n := range p.Notes {
		fmt.Fprintf(&b, "note %q; ", noteText(n))
	}
	b.WriteString(p.Next.String())
	switch p.Next {
	case startFold:
		fmt.Fprintf(&b, " %d items, whole below %d", len(p.Events), p.End)
		if p.Join {
			b.WriteString(", joins")
		}
	case startNarrow:
		fmt.Fprintf(&b, " to span %d", p.Span)
	}
	if p.Why != "" {
		fmt.Fprintf(&b, ": %s", p.Why)
	}
	return b.String()
}

func TestPlanStartPage(t *testing.T) {
	// The window holds every item below 40 (its newest at 31) and asks
	// below 40+100-1 = 139; the held range starts at 900.
	req := startRequest{Epoch: "e1", Gen: 2, End: 40, Span: 100, Cursor: 139}
	held := heldRange{SessionID: "s1", Epoch: "e1", Gen: 2, Cursor: 1000, DurableCursor: 1000, Authority: true}
	replaced := held
	replaced.Gen = 3
	item := func(pos int64) string { return durableEl("s1", pos, pos-1) }
	cases := []struct {
		name   string
		req    startRequest
		res    json.RawMessage
		rerr   *model.RPCError
		held   heldRange
		oldest int64
		want   string
	}{
		{"stale cursor (-32020)", req, nil, &model.RPCError{Code: model.CodeStaleCursor}, held, 900,
			"resync: start page refused as stale (-32020)"},
		{"another error answer", req, nil, &model.RPCError{Code: -32603, Message: "boom"}, held, 900,
			"failed: view/page before (start) failed: boom"},
		{"malformed answer", req, json.RawMessage(`7`), nil, held, 900,
			"failed: malformed view/page before (start) result: not a JSON object"},
		{"asked before a replacement", req, startPage("e1", 31, true, true, item(31)), nil, replaced, 900,
			"stale"},
		{"the host answers from another epoch", req, startPage("e2", 31, true, true, item(31)), nil, held, 900,
			"resync: the host's epoch changed"},
		{"starts at the window's newest item", req, startPage("e1", 31, true, true, item(31), item(52), item(130)), nil, held, 900,
			"fold 3 items, whole below 139"},
		{"starts at the window's end", req, startPage("e1", 40, true, true, item(40), item(41)), nil, held, 900,
			"fold 2 items, whole below 139"},
		{"starts above the end, older items exist: cut by bytes", req, startPage("e1", 120, true, true, item(120), item(130)), nil, held, 900,
			"narrow to span 50"},
		{"narrowing stops at the narrowest span", startRequest{Epoch: "e1", Gen: 2, End: 40, Span: 3, Cursor: 42}, startPage("e1", 41, true, true, item(41)), nil, held, 900,
			"narrow to span 2"},
		{"starts above the end with nothing older: the session's first items", startRequest{Epoch: "e1", Gen: 2, End: 1, Span: 100, Cursor: 100}, startPage("e1", 4, true, false, item(4), item(9)), nil, held, 900,
			"fold 2 items, whole below 100"},
		{"nothing below the cursor", startRequest{Epoch: "e1", Gen: 2, End: 1, Span: 100, Cursor: 100}, startPage("e1", 100, true, false), nil, held, 900,
			"fold 0 items, whole below 100"},
		{"reaches the held range", startRequest{Epoch: "e1", Gen: 2, End: 850, Span: 100, Cursor: 949}, startPage("e1", 840, true, true, item(840), item(900)), nil, held, 900,
			"fold 2 items, whole below 949, joins"},
		{"nothing newer than the cursor", req, startPage("e1", 31, false, true, item(31)), nil, held, 0,
			"fold 1 items, whole below 139, joins"},
		{"an undecodable element is noted and left out", req, startPage("e1", 31, true, true, item(31), badEl), nil, held, 900,
			`note "start element: (decode error)"; fold 1 items, whole below 139`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := describeStart(planStartPage(c.req, c.res, c.rerr, c.held, c.oldest))
			if got != c.want {
				t.Errorf("plan\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestStartCursor(t *testing.T) {
	cases := []struct {
		name              string
		end, span, cursor int64
		want              int64
	}{
		{"a full span", 40, 100, 1000, 139},
		{"stops at the client's cursor + 1", 40, 100, 90, 91},
		{"the narrowest span asks one new position", 40, 2, 1000, 41},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := startCursor(c.end, c.span, c.cursor); got != c.want {
				t.Errorf("startCursor(%d, %d, %d) = %d, want %d", c.end, c.span, c.cursor, got, c.want)
			}
		})
	}
}
