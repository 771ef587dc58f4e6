package host

import (
	"testing"
	"time"

	"github.com/lookout-sh/lookout/model"
)

func TestNoticeFor(t *testing.T) {
	item := func(js string) *model.Item {
		it, err := model.DecodeItem([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		return it
	}
	asked := item(`{"itemId":"q","turnId":"t","revision":1,"position":1,"recordedAt":"2026-08-07T18:43:05Z","kind":"question","status":"waitingUser","header":"Database","text":"Which one?","options":[{"label":"A"}],"multiple":false,"freeText":false}`)
	bare := item(`{"itemId":"q","turnId":"t","revision":1,"position":1,"recordedAt":"2026-08-07T18:43:05Z","kind":"question","status":"waitingUser","text":"Which one?","options":[],"multiple":false,"freeText":true}`)
	answered := item(`{"itemId":"q","turnId":"t","revision":1,"position":1,"recordedAt":"2026-08-07T18:43:05Z","kind":"question","status":"answered","text":"Which one?","options":[],"multiple":false,"freeText":true}`)
	msg := item(`{"itemId":"m","turnId":"t","revision":1,"position":1,"recordedAt":"2026-08-07T18:43:05Z","kind":"agentMessage","status":"inProgress","text":""}`)
	tests := []struct {
		name   string
		ev     *model.Event
		ok     bool
		reason string
		text   string
	}{
		{"an approval", &model.Event{Method: model.MethodApprovalRequested, ApprovalID: "a"}, true, needsApproval, "rm -rf build"},
		{"a failed turn", &model.Event{Method: model.MethodTurnCompleted, Status: model.StatusFailed, TurnError: &model.TurnError{Code: "modelError", Message: "500"}}, true, needsFailed, "500"},
		{"a failed turn without a message", &model.Event{Method: model.MethodTurnCompleted, Status: model.StatusFailed}, true, needsFailed, "the turn failed"},
		{"a completed turn", &model.Event{Method: model.MethodTurnCompleted, Status: model.StatusCompleted}, false, "", ""},
		{"a stopped turn", &model.Event{Method: model.MethodTurnCompleted, Status: model.StatusStopped}, false, "", ""},
		{"a question", &model.Event{Method: model.MethodItemStarted, Item: asked}, true, needsQuestion, "Database: Which one?"},
		{"a question without a header", &model.Event{Method: model.MethodItemStarted, Item: bare}, true, needsQuestion, "Which one?"},
		{"a question that does not wait", &model.Event{Method: model.MethodItemStarted, Item: answered}, false, "", ""},
		{"another item", &model.Event{Method: model.MethodItemStarted, Item: msg}, false, "", ""},
		{"anything else", &model.Event{Method: model.MethodItemStarted}, false, "", ""},
	}
	for _, tc := range tests {
		n, ok := noticeFor(tc.ev, "rm -rf build")
		if ok != tc.ok || n.Reason != tc.reason || n.Text != tc.text {
			t.Errorf("%s: noticeFor = (%+v, %v), want reason %q text %q ok %v", tc.name, n, ok, tc.reason, tc.text, tc.ok)
		}
	}
}

func TestNoticeGateCoalescesPerSessionPerMinute(t *testing.T) {
	now := time.Date(2026, 12, 2, 16, 0, 0, 0, time.UTC)
	sent := make(chan Notice, 10)
	g := newNoticeGate(func(n Notice) { sent <- n })
	g.now = func() time.Time { return now }
	var timers []func()
	g.after = func(_ time.Duration, f func()) { timers = append(timers, f) }
	recv := func(what string) Notice {
		t.Helper()
		select {
		case n := <-sent:
			return n
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: nothing sent", what)
		}
		return Notice{}
	}
	none := func(what string) {
		t.Helper()
		select {
		case n := <-sent:
			t.Fatalf("%s: sent %+v", what, n)
		case <-time.After(50 * time.Millisecond):
		}
	}

	g.offer(Notice{SessionID: "s1", Reason: needsApproval, Text: "one"})
	if n := recv("the first"); n.Text != "one" || n.Count != 1 {
		t.Fatalf("first notice %+v", n)
	}
	now = now.Add(10 * time.Second)
	g.offer(Notice{SessionID: "s1", Reason: needsApproval, Text: "two"})
	g.offer(Notice{SessionID: "s1", Reason: needsFailed, Text: "three"})
	none("within the minute")
	g.offer(Notice{SessionID: "s2", Reason: needsFailed, Text: "other"})
	if n := recv("another session"); n.SessionID != "s2" {
		t.Fatalf("another session's notice %+v", n)
	}
	if len(timers) != 1 {
		t.Fatalf("%d timers for one held session, want 1", len(timers))
	}
	now = now.Add(time.Minute)
	timers[0]()
	if n := recv("the minute's end"); n.Text != "three" || n.Count != 2 || n.Reason != needsFailed {
		t.Fatalf("held notice %+v, want the latest with count 2", n)
	}
	timers[0]() // a second release has nothing to send
	none("a second release")
}

func TestNoticeCleanIsOneBoundedLine(t *testing.T) {
	n := Notice{SessionID: "s", Title: "evil\x1b]0;owned\x07title", Reason: "approval", Text: "line one\nline two\x1b[2J" + string(make([]byte, 2000))}.clean()
	for _, f := range []string{n.Title, n.Text} {
		for _, r := range f {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("a control character in %q", f)
			}
		}
	}
	if len(n.Text) > 1000 {
		t.Fatalf("text of %d bytes", len(n.Text))
	}
}
