package host_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// burstAgent answers a prompt "burst N" with N single-record items, or
// delegates to the demo agent.
type burstAgent struct{ host.DemoAgent }

func (a burstAgent) Run(ctx context.Context, t *host.Turn) error {
	if n, ok := strings.CutPrefix(t.Prompt(), "burst "); ok {
		count, _ := strconv.Atoi(n)
		for i := range count {
			if _, err := t.RecordItem(model.KindAgentMessage, model.StatusCompleted, map[string]any{"text": fmt.Sprintf("item %d", i)}); err != nil {
				return err
			}
		}
		return nil
	}
	return a.DemoAgent.Run(ctx, t)
}

func TestPageThroughTenThousandEvents(t *testing.T) {
	h := hosttest.Start(t, host.Options{AgentImpl: burstAgent{}})
	c := hosttest.Dial(t, h)
	sid, epoch, st := newSession(t, c)
	t0 := time.Now()
	runTurn(t, c, sid, st, "b", "burst 9996") // + title, turn/started, userMessage, turn/completed
	t1 := time.Now()
	evs := pageAll(t, c, sid, epoch, 41)
	t.Logf("burst turn %v, paging %v", t1.Sub(t0), time.Since(t1))
	if len(evs) != 10000 {
		t.Fatalf("%d durable events paged, want 10000", len(evs))
	}
	seen := map[int64]bool{}
	for _, ev := range evs {
		if seen[ev.Seq] {
			t.Fatalf("seq %d twice", ev.Seq)
		}
		seen[ev.Seq] = true
	}
	// The last page's endCursor is the head; a page from the head is empty.
	last := getPage(t, c, sid, epoch, "after", model.FormatCursor(sid, evs[len(evs)-2].Seq), 41)
	if last.HasNewer || last.EndCursor != model.FormatCursor(sid, st.Cursor) {
		t.Fatalf("last page: hasNewer %v endCursor %s, head %d", last.HasNewer, last.EndCursor, st.Cursor)
	}
	empty := getPage(t, c, sid, epoch, "after", last.EndCursor, 41)
	if len(empty.Events) != 0 || empty.HasNewer || empty.EndCursor != last.EndCursor {
		t.Fatalf("page at head = %+v", empty)
	}
	if got, want := foldAll(t, sid, evs).Encode(), st.Encode(); string(got) != string(want) {
		t.Fatal("fold of pages != live fold")
	}

	// before pages walk every item back to the start, each once, in order.
	var positions []int64
	cursor := ""
	for {
		p := getPage(t, c, sid, epoch, "before", cursor, 50)
		if len(p.Events) > 50 {
			t.Fatalf("before page of %d", len(p.Events))
		}
		var pagePos []int64
		for _, el := range p.Events {
			ev, err := model.DecodeNotification(el.Method, el.Params)
			if err != nil || ev.Item == nil {
				t.Fatalf("before element %s: %v", el.Method, err)
			}
			pagePos = append(pagePos, ev.Item.Position)
		}
		if len(pagePos) > 0 && p.StartCursor != model.FormatCursor(sid, pagePos[0]) {
			t.Fatalf("startCursor %s, first position %d", p.StartCursor, pagePos[0])
		}
		positions = append(pagePos, positions...)
		if !p.HasOlder {
			break
		}
		cursor = p.StartCursor
	}
	if len(positions) != len(st.Items()) {
		t.Fatalf("before pages held %d items, the session has %d", len(positions), len(st.Items()))
	}
	for i, it := range st.Items() {
		if positions[i] != it.Position {
			t.Fatalf("item %d: position %d, want %d", i, positions[i], it.Position)
		}
	}
}

func TestPagesAreByteBounded(t *testing.T) {
	h := hosttest.Start(t, host.Options{Ephemeral: true})
	c := hosttest.Dial(t, h)
	sid, epoch, st := newSession(t, c)
	for i := range 20 {
		runTurn(t, c, sid, st, fmt.Sprint("big", i), "big output")
	}
	p := getPage(t, c, sid, epoch, "after", "", 1000)
	size := 0
	for _, el := range p.Events {
		size += len(el.Params)
	}
	if !p.HasNewer || size > host.PageBytes {
		t.Fatalf("after page of %d events, %d bytes, hasNewer %v", len(p.Events), size, p.HasNewer)
	}
	b := getPage(t, c, sid, epoch, "before", "", 1000)
	size = 0
	for _, el := range b.Events {
		size += len(el.Params)
	}
	if !b.HasOlder || size > host.PageBytes || len(b.Events) == 0 {
		t.Fatalf("before page of %d events, %d bytes, hasOlder %v", len(b.Events), size, b.HasOlder)
	}
	// A snapshot is bounded the same way.
	sub, err := hosttest.Dial(t, h).Subscribe(sid, "", "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	size = 0
	for _, it := range sub.Snapshot.Items {
		size += len(it)
	}
	if !sub.Snapshot.HasOlder || size > host.PageBytes {
		t.Fatalf("snapshot of %d items, %d bytes, hasOlder %v", len(sub.Snapshot.Items), size, sub.Snapshot.HasOlder)
	}
}
