package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

// fakeSource is a Source whose Views come from a real model.State folding
// scripted events: the real fold, no network.
type fakeSource struct {
	t  testing.TB
	mu gosync.Mutex
	st *model.State
	sn sync.Picture
	ch chan struct{}

	sid  string
	seq  int64
	prev int64
	cid  int

	calls   []string
	looking []bool
}

// stillModel is the tests' usual Model on f: the dark theme, the clock
// stopped at fixedNow, no animation.
func stillModel(tb testing.TB, f *fakeSource) *Model {
	tb.Helper()
	m, err := New(Options{Source: f, Theme: "dark", Now: func() time.Time { return fixedNow }, Still: true})
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

func newFake(t testing.TB) *fakeSource {
	f := &fakeSource{t: t, st: model.NewState("s1"), sid: "s1", ch: make(chan struct{}, 1)}
	f.sn.Freshness.State = sync.Live
	f.sn.Durability = "durable"
	f.publishLocked()
	return f
}

func (f *fakeSource) publishLocked() {
	f.sn.View = f.st.View()
	f.sn.SessionID = f.sid
	select {
	case f.ch <- struct{}{}:
	default:
	}
}

// edit changes the snapshot (freshness, errors, ...) and publishes.
func (f *fakeSource) edit(fn func(sn *sync.Picture, st *model.State)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(&f.sn, f.st)
	for _, r := range f.st.TakeRetirements() {
		if sync.GivesBack(r.Reason) {
			if f.sn.ReturnedBase == 0 {
				f.sn.ReturnedBase = 1
			}
			f.sn.Returned = append(f.sn.Returned, r)
		}
	}
	f.publishLocked()
}

// frame folds one durable or ephemeral notification built from method and
// params (sessionId, viewCursor, prevCursor are filled in).
func (f *fakeSource) frame(method string, params map[string]any) {
	f.mu.Lock()
	f.seq++
	params["sessionId"] = f.sid
	params["viewCursor"] = model.FormatCursor(f.sid, f.seq)
	durable, _ := model.IsDurable(method)
	if durable {
		if f.prev == 0 {
			params["prevCursor"] = nil
		} else {
			params["prevCursor"] = model.FormatCursor(f.sid, f.prev)
		}
		f.prev = f.seq
	}
	raw, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	if err != nil {
		f.mu.Unlock()
		f.t.Fatal(err)
	}
	ev, err := model.DecodeFrame(raw)
	if err != nil {
		f.mu.Unlock()
		f.t.Fatalf("decode %s: %v", raw, err)
	}
	if err := f.st.Apply(ev); err != nil {
		f.mu.Unlock()
		f.t.Fatalf("apply %s: %v", raw, err)
	}
	f.mu.Unlock()
	f.edit(func(*sync.Picture, *model.State) {})
}

// item emits item/started (or completed when the status is terminal).
func (f *fakeSource) item(method string, fields map[string]any) {
	it := map[string]any{"turnId": "t1", "revision": 1, "status": "inProgress", "recordedAt": "2026-01-01T00:00:00Z"}
	for k, v := range fields {
		it[k] = v
	}
	f.frame(method, map[string]any{"item": it})
}

func (f *fakeSource) delta(itemID, field, d string) {
	f.frame(model.MethodItemDelta, map[string]any{"itemId": itemID, "field": field, "delta": d})
}

func (f *fakeSource) Updates() <-chan struct{} { return f.ch }

func (f *fakeSource) Current() sync.Picture {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sn
}

func (f *fakeSource) record(s string) {
	f.mu.Lock()
	f.calls = append(f.calls, s)
	f.mu.Unlock()
}

func (f *fakeSource) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func (f *fakeSource) Submit(text string) string {
	f.mu.Lock()
	f.cid++
	cid := fmt.Sprintf("c%d", f.cid)
	f.calls = append(f.calls, "submit:"+text)
	f.st.Submit(cid, text, 0)
	f.publishLocked()
	f.mu.Unlock()
	return cid
}

func (f *fakeSource) SubmitCommand(text, name string) string {
	f.mu.Lock()
	f.cid++
	cid := fmt.Sprintf("c%d", f.cid)
	f.calls = append(f.calls, "command:"+name+":"+text)
	f.st.Submit(cid, text, 0)
	f.publishLocked()
	f.mu.Unlock()
	return cid
}

func (f *fakeSource) Steer(text string) string {
	f.record("steer:" + text)
	return "s1"
}

func (f *fakeSource) Unqueue(cid string) { f.record("unqueue:" + cid) }
func (f *fakeSource) Interrupt()         { f.record("interrupt") }
func (f *fakeSource) Respond(approvalID string, decision model.Decision) {
	f.record("respond:" + approvalID + ":" + string(decision))
}
func (f *fakeSource) Deny(approvalID, reason string) {
	f.record("deny:" + approvalID + ":" + reason)
}
func (f *fakeSource) AnswerQuestion(questionID string, a model.QuestionAnswer) {
	f.record("answer:" + questionID + ":" + strings.Join(a.Selected, ",") + ":" + a.Text)
}
func (f *fakeSource) LoadOlder()   { f.record("loadOlder") }
func (f *fakeSource) LoadStart()   { f.record("loadStart") }
func (f *fakeSource) LoadForward() { f.record("loadForward") }
func (f *fakeSource) Retry()       { f.record("retry") }
func (f *fakeSource) Focus()       { f.record("focus") }

// SetLooking is kept apart from Calls: it follows every key and focus.
func (f *fakeSource) SetLooking(on bool) {
	f.mu.Lock()
	f.looking = append(f.looking, on)
	f.mu.Unlock()
}

// Looking is what SetLooking was told, in order.
func (f *fakeSource) Looking() []bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]bool(nil), f.looking...)
}

var _ Source = (*fakeSource)(nil)

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
