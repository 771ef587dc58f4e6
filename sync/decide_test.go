package sync

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/model"
)

func TestGateEvent(t *testing.T) {
	dur := func(seq, prev int64) *model.Event {
		return &model.Event{Method: model.MethodItemCompleted, Durable: true, Seq: seq, PrevSeq: prev}
	}
	eph := func(seq int64) *model.Event { return &model.Event{Method: model.MethodItemDelta, Seq: seq} }
	cases := []struct {
		name          string
		ev            *model.Event
		cursor, dcurs int64
		want          verdict
	}{
		{"first durable event of a session", dur(1, 0), 0, 0, apply},
		{"durable continues the durable cursor", dur(12, 10), 11, 10, apply},
		{"durable continues across ephemeral seqs", dur(20, 10), 19, 10, apply},
		{"durable re-delivery at the cursor", dur(10, 9), 11, 10, drop},
		{"durable re-delivery below the cursor", dur(3, 2), 11, 10, drop},
		{"durable names an older prevCursor: gap", dur(14, 12), 12, 10, gap},
		{"durable names a newer prevCursor: gap", dur(14, 13), 11, 10, gap},
		{"first event seen is not the session's first: gap", dur(5, 4), 0, 0, gap},
		{"ephemeral above the cursor", eph(12), 11, 10, apply},
		{"ephemeral at the cursor", eph(11), 11, 10, drop},
		{"ephemeral below the cursor", eph(4), 11, 10, drop},
		{"ephemeral after a skipped ephemeral is no gap", eph(30), 11, 10, apply},
		{"ephemeral below the cursor but above the durable one", eph(11), 12, 10, drop},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := gateEvent(c.ev, c.cursor, c.dcurs); got != c.want {
				t.Errorf("gate(seq %d prev %d | cursor %d durable %d) = %v, want %v",
					c.ev.Seq, c.ev.PrevSeq, c.cursor, c.dcurs, got, c.want)
			}
		})
	}
}

func TestAcceptAfterPage(t *testing.T) {
	req := pageRequest{Epoch: "e1", Cursor: "v:s:10", CursorSeq: 10, Gen: 3}
	cases := []struct {
		name        string
		req         pageRequest
		answerEpoch string
		stateEpoch  string
		gen         uint64
		durable     int64
		want        pageVerdict
	}{
		{"adjacent to the held range", req, "e1", "e1", 3, 10, pageAccept},
		{"overlapping the held range", req, "e1", "e1", 3, 15, pageAccept},
		{"asked before a replacement", req, "e1", "e1", 4, 10, pageStale},
		{"state moved to another epoch since", req, "e1", "e2", 3, 10, pageStale},
		{"host answers from another epoch", req, "e2", "e1", 3, 10, pageEpoch},
		{"would leave a hole (cursor above held range)", req, "e1", "e1", 3, 9, pageStale},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := acceptAfterPage(c.req, c.answerEpoch, c.stateEpoch, c.gen, c.durable); got != c.want {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestAcceptBeforePage(t *testing.T) {
	req := pageRequest{Epoch: "e1", Cursor: "v:s:40", CursorSeq: 40, Gen: 2}
	cases := []struct {
		name        string
		answerEpoch string
		stateEpoch  string
		gen         uint64
		start       string
		want        pageVerdict
	}{
		{"still adjacent to the history start", "e1", "e1", 2, "v:s:40", pageAccept},
		{"history start moved (another page landed)", "e1", "e1", 2, "v:s:20", pageStale},
		{"state replaced since (snapshot)", "e1", "e1", 3, "v:s:40", pageStale},
		{"state in another epoch now", "e1", "e2", 2, "v:s:40", pageStale},
		{"host answers from another epoch", "e9", "e1", 2, "v:s:40", pageEpoch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := acceptBeforePage(req, c.answerEpoch, c.stateEpoch, c.gen, c.start); got != c.want {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestBackoffSequenceAndResets(t *testing.T) {
	var b backoff
	next := func() time.Duration { return b.Drop(false, 0, healthyAfter) }
	want := []time.Duration{1, 2, 4, 8, 16, 30, 30, 30}
	for i, w := range want {
		if got := next(); got != w*time.Second {
			t.Fatalf("attempt %d: %v, want %v", i, got, w*time.Second)
		}
	}
	if b.Attempt() != len(want) {
		t.Fatalf("Attempt() = %d", b.Attempt())
	}
	b.Reset() // focus, user retry
	if got := next(); got != time.Second {
		t.Fatalf("after reset: %v, want 1s", got)
	}
	if got := next(); got != 2*time.Second {
		t.Fatalf("second after reset: %v, want 2s", got)
	}
	if got := backoffDelay(-3); got != time.Second {
		t.Fatalf("negative attempt: %v", got)
	}
	if got := backoffDelay(1000); got != 30*time.Second {
		t.Fatalf("huge attempt: %v", got)
	}
}

// A catch-up is not a success by itself: only a connection that stayed
// live healthyAfter starts the backoff over (a host that sends an
// oversize frame after each catch-up must not be retried once a second).
func TestDecideRetry(t *testing.T) {
	const h = healthyAfter
	cases := []struct {
		name      string
		in        retryInputs
		wait      time.Duration
		nextCount int
	}{
		{"first failure", retryInputs{Attempt: 0, HealthyAfter: h}, time.Second, 1},
		{"third failed dial", retryInputs{Attempt: 2, HealthyAfter: h}, 4 * time.Second, 3},
		{"at the ceiling", retryInputs{Attempt: 9, HealthyAfter: h}, 30 * time.Second, 10},
		{"lost after catch-up, live 2 s", retryInputs{Attempt: 3, LiveFor: 2 * time.Second, HealthyAfter: h}, 8 * time.Second, 4},
		{"lost right after catch-up", retryInputs{Attempt: 6, LiveFor: time.Millisecond, HealthyAfter: h}, 30 * time.Second, 7},
		{"lost after 29.9 s live", retryInputs{Attempt: 4, LiveFor: h - 100*time.Millisecond, HealthyAfter: h}, 16 * time.Second, 5},
		{"lost after 30 s live: starts over", retryInputs{Attempt: 6, LiveFor: h, HealthyAfter: h}, time.Second, 1},
		{"lost after an hour live", retryInputs{Attempt: 2, LiveFor: time.Hour, HealthyAfter: h}, time.Second, 1},
		{"immediate, nothing failed", retryInputs{Immediate: true, HealthyAfter: h}, 0, 1},
		{"immediate after a healthy link", retryInputs{Attempt: 5, Immediate: true, LiveFor: time.Minute, HealthyAfter: h}, 0, 1},
		{"immediate again soon after", retryInputs{Attempt: 1, Immediate: true, LiveFor: time.Second, HealthyAfter: h}, time.Second, 2},
		{"immediate, repeated", retryInputs{Attempt: 4, Immediate: true, HealthyAfter: h}, 8 * time.Second, 5},
		{"scaled threshold (tests)", retryInputs{Attempt: 3, LiveFor: 400 * time.Millisecond, HealthyAfter: 300 * time.Millisecond}, time.Second, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wait, n := decideRetry(c.in)
			if wait != c.wait || n != c.nextCount {
				t.Errorf("wait %v, attempt %d; want %v, %d", wait, n, c.wait, c.nextCount)
			}
		})
	}
}

func TestDecideFreshnessPriority(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	auth := func(in freshInputs) freshInputs {
		in.RefusalReason = ReasonAuth
		return in
	}
	lost := func(in freshInputs) freshInputs {
		in.LastReason = ReasonUnreachable
		return in
	}
	cases := []struct {
		name   string
		in     freshInputs
		want   FreshState
		reason string
	}{
		{"first attempt", freshInputs{}, Connecting, ""},
		{"first attempt connected, initializing", freshInputs{Connected: true}, Updating, ""},
		{"connected and caught up", freshInputs{Connected: true, CaughtUp: true, EverConnected: true}, Live, ""},
		{"connected, catching up", freshInputs{Connected: true, EverConnected: true}, Updating, ""},
		{"offline after a loss", lost(freshInputs{EverConnected: true, LastErr: "lost", NextAttempt: at, Attempt: 2}), Reconnecting, ReasonUnreachable},
		{"first attempt failed", lost(freshInputs{LastErr: "refused", NextAttempt: at, Attempt: 1}), Reconnecting, ReasonUnreachable},
		{"refusal beats reconnecting", lost(auth(freshInputs{Refusal: "401", LastErr: "401", NextAttempt: at})), Error, ReasonAuth},
		{"refusal beats updating", freshInputs{Refusal: "unknown session", RefusalReason: ReasonNoSession, Connected: true}, Error, ReasonNoSession},
		{"refusal beats live", freshInputs{Refusal: "x", RefusalReason: ReasonProtocol, Connected: true, CaughtUp: true}, Error, ReasonProtocol},
		{"user retry beats error", auth(freshInputs{UserRetry: true, Refusal: "401"}), Retrying, ReasonAuth},
		// A user retry without a refusal only makes the banner more
		// accurate: it never turns reconnecting or updating into an
		// error-shaped state with no error to show.
		{"user retry while connected but catching up", lost(freshInputs{UserRetry: true, Connected: true, EverConnected: true}), Updating, ""},
		{"user retry while reconnecting: trying now", lost(freshInputs{UserRetry: true, EverConnected: true, LastErr: "connection refused", Attempt: 3}), Reconnecting, ReasonUnreachable},
		{"user retry on the first attempt", freshInputs{UserRetry: true}, Connecting, ""},
		// The last error's reason is not the refusal's: while refused, the
		// refusal classifies the banner.
		{"refused, the last error was a lost link", lost(auth(freshInputs{Refusal: "401", LastErr: "lost", NextAttempt: at})), Error, ReasonAuth},
		{"live forgets the last reason", lost(freshInputs{Connected: true, CaughtUp: true, EverConnected: true}), Live, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := decideFreshness(c.in)
			if got.State != c.want || got.Reason != c.reason {
				t.Errorf("%v (reason %q), want %v (reason %q)", got.State, got.Reason, c.want, c.reason)
			}
			if got.State == Reconnecting && (!got.NextAttempt.Equal(c.in.NextAttempt) || got.Err != c.in.LastErr || got.Attempt != c.in.Attempt) {
				t.Errorf("reconnecting lacks banner data: %+v", got)
			}
			if (got.State == Error || got.State == Retrying) && (got.Err == "" || got.Err != c.in.Refusal) {
				t.Errorf("%s lacks its message: %+v", got.State, got)
			}
		})
	}
}

func TestReconcileReplay(t *testing.T) {
	ans := func(s string) replayAnswer {
		var a replayAnswer
		if err := json.Unmarshal([]byte(s), &a); err != nil {
			t.Fatal(err)
		}
		return a
	}
	cases := []struct {
		name   string
		answer string
		acked  bool
		want   replayAction
	}{
		{"still pending", `{"state":"pending"}`, true, replayAction{Keep: true}},
		{"queued refreshes the ack", `{"state":"queued","turnId":"t1"}`, true, replayAction{Keep: true, AckStatus: "queued", TurnID: "t1"}},
		{"started refreshes the ack", `{"state":"started","turnId":"t1"}`, false, replayAction{Keep: true, AckStatus: "started", TurnID: "t1"}},
		{"joined", `{"state":"settled","turnId":"t1","settlement":{"kind":"userMessage","itemId":"i9"}}`, true,
			replayAction{Retire: model.RetiredJoined, ItemID: "i9"}},
		{"rejected", `{"state":"settled","settlement":{"kind":"rejected","reason":"session closed"}}`, true,
			replayAction{Retire: model.RetiredRejected, Detail: "session closed"}},
		{"unqueued", `{"state":"settled","turnId":"t1","settlement":{"kind":"unqueued"}}`, true, replayAction{Retire: model.RetiredUnqueued}},
		{"launch failed", `{"state":"settled","turnId":"t1","settlement":{"kind":"launchFailed"}}`, true, replayAction{Retire: model.RetiredLaunchFailed}},
		{"unacked and unknown: resubmit", `{"state":"unknown"}`, false, replayAction{Keep: true, Resubmit: true}},
		{"acked but forgotten: text back", `{"state":"unknown"}`, true,
			replayAction{Retire: model.RetiredGaveUp, Detail: "the host has no record of this command"}},
		{"settled without settlement: keep, report", `{"state":"settled"}`, true, replayAction{Keep: true, Detail: "settled without a settlement"}},
		{"unknown settlement kind: keep, report", `{"state":"settled","settlement":{"kind":"teleported"}}`, true,
			replayAction{Keep: true, Detail: "unknown settlement kind teleported"}},
		{"unknown state: keep, report", `{"state":"limbo"}`, true, replayAction{Keep: true, Detail: "unknown replay state limbo"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := reconcileReplay(ans(c.answer), c.acked); got != c.want {
				t.Errorf("%+v, want %+v", got, c.want)
			}
		})
	}
	// Only the composer-returning reasons give text back.
	if !model.RetiredGaveUp.ReturnsText() || model.RetiredRejected.ReturnsText() {
		t.Fatal("ReturnsText changed under us")
	}
}

func TestNormalizeURL(t *testing.T) {
	cases := map[string]string{
		"127.0.0.1:7777":              "ws://127.0.0.1:7777/v1/ws",
		"localhost:1":                 "ws://localhost:1/v1/ws",
		"ws://h:1":                    "ws://h:1/v1/ws",
		"ws://h:1/":                   "ws://h:1/v1/ws",
		"ws://h:1/v1/ws":              "ws://h:1/v1/ws",
		"wss://h:1/custom/path":       "wss://h:1/custom/path",
		"http://h:1":                  "ws://h:1/v1/ws",
		"https://h:1":                 "wss://h:1/v1/ws",
		"HTTP://h:2":                  "ws://h:2/v1/ws",
		" ws://h:1/v1/ws?token=abc ":  "ws://h:1/v1/ws?token=abc",
		"http://[::1]:7777":           "ws://[::1]:7777/v1/ws",
		"ws://h:1/v1/ws#frag":         "ws://h:1/v1/ws",
		"https://example.org:443/x/y": "wss://example.org:443/x/y",
	}
	for in, want := range cases {
		t.Run(in, func(t *testing.T) {
			got, err := NormalizeURL(in)
			if err != nil || got != want {
				t.Errorf("NormalizeURL(%q) = %q, %v; want %q", in, got, err, want)
			}
		})
	}
	for _, bad := range []string{"", "ftp://h:1", "ws://", "://x"} {
		t.Run("refused "+bad, func(t *testing.T) {
			if got, err := NormalizeURL(bad); err == nil {
				t.Errorf("NormalizeURL(%q) = %q, want an error", bad, got)
			}
		})
	}
}

func TestPickSession(t *testing.T) {
	ss := []SessionInfo{
		{SessionID: "a", UpdatedAt: "2026-01-01T00:00:00Z"},
		{SessionID: "b", UpdatedAt: "2026-03-01T00:00:00Z"},
		{SessionID: "c", UpdatedAt: "2026-02-01T00:00:00Z"},
	}
	if got := pickSession(ss); got != "b" {
		t.Fatalf("pickSession = %q, want b", got)
	}
	if got := pickSession(nil); got != "" {
		t.Fatalf("empty list: %q", got)
	}
	// By time, not by text: "…00Z" sorts after "…00.5Z" as text.
	ss = []SessionInfo{{SessionID: "half", UpdatedAt: "2026-03-01T00:00:00.5Z"}, {SessionID: "whole", UpdatedAt: "2026-03-01T00:00:00Z"}}
	if got := pickSession(ss); got != "half" {
		t.Fatalf("pickSession = %q, want half (the newer)", got)
	}
}
