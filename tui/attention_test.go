package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/lookout-sh/lookout/model"
)

func TestAttentionTellsEachThingOnce(t *testing.T) {
	now := time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC)
	ap := func(id, summary string) model.Approval { return model.Approval{ApprovalID: id, Summary: summary} }
	q := func(id, turn, status string) *model.Item {
		it, err := model.DecodeItem([]byte(`{"itemId":"` + id + `","turnId":"` + turn + `","revision":1,"position":1,"recordedAt":"2026-08-07T18:43:05Z","kind":"question","status":"` + status + `","text":"Which db?\nmore","options":[],"multiple":false,"freeText":true}`))
		if err != nil {
			t.Fatal(err)
		}
		return it
	}
	running := &model.ActiveTurn{TurnID: "t5"}
	var a attention
	steps := []struct {
		name string
		v    *model.View
		want []string // titles
	}{
		{"no picture", nil, nil},
		{"the first picture is not news", &model.View{Approvals: []model.Approval{ap("a0", "old")},
			LastTurn: &model.TurnRecord{TurnID: "t0", Status: model.StatusFailed}}, nil},
		{"the same again", &model.View{Approvals: []model.Approval{ap("a0", "old")}}, nil},
		{"a new approval", &model.View{Approvals: []model.Approval{ap("a0", "old"), ap("a1", "rm -rf build\nand more")}}, []string{"Approval needed"}},
		{"a turn failed", &model.View{LastTurn: &model.TurnRecord{TurnID: "t1", Status: model.StatusFailed,
			Error: &model.TurnError{Message: "the model provider answered 500"}}}, []string{"Turn failed"}},
		{"a short turn completed", &model.View{LastTurn: &model.TurnRecord{TurnID: "t2", Status: model.StatusCompleted,
			StartedAt: now.Add(-5 * time.Second).Format(time.RFC3339Nano)}}, nil},
		{"a long turn completed", &model.View{LastTurn: &model.TurnRecord{TurnID: "t3", Status: model.StatusCompleted,
			StartedAt: now.Add(-3 * time.Minute).Format(time.RFC3339Nano)}}, []string{"Turn finished"}},
		{"a stopped turn", &model.View{LastTurn: &model.TurnRecord{TurnID: "t4", Status: model.StatusStopped}}, nil},
		{"a question waits", &model.View{ActiveTurn: running, Items: []*model.Item{q("q1", "t5", model.StatusWaitingUser)}}, []string{"Question"}},
		{"the same question again", &model.View{ActiveTurn: running, Items: []*model.Item{q("q1", "t5", model.StatusWaitingUser)}}, nil},
		{"an answered question is no news", &model.View{ActiveTurn: running, Items: []*model.Item{q("q1", "t5", model.StatusAnswered), q("q2", "t5", model.StatusAnswered)}}, nil},
	}
	for _, s := range steps {
		taps := a.observe(s.v, now)
		var got []string
		for _, tp := range taps {
			got = append(got, tp.title)
			if strings.ContainsAny(tp.body, "\n\x1b") {
				t.Errorf("%s: body %q is not one line", s.name, tp.body)
			}
		}
		if strings.Join(got, ",") != strings.Join(s.want, ",") {
			t.Errorf("%s: taps %v, want %v", s.name, got, s.want)
		}
	}
}

func TestNotifierTapsOnlyWhenBlurredAndCoalesces(t *testing.T) {
	now := time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC)
	one := []tap{{"Approval needed", "run make"}}
	n := notifier{style: NotifyOSC9}
	if got := n.sequence(one, "S", now); got != "" {
		t.Fatalf("focused terminal tapped: %q", got)
	}
	n.blurred = true
	if got := n.sequence(one, "Fix the build", now); got != "\x1b]9;Approval needed: Fix the build · run make\a" {
		t.Fatalf("first tap %q", got)
	}
	if got := n.sequence(one, "S", now.Add(10*time.Second)); got != "" {
		t.Fatalf("a second tap within the minute: %q", got)
	}
	if got := n.sequence([]tap{{"Turn failed", "boom"}}, "S", now.Add(70*time.Second)); !strings.HasSuffix(got, "boom (+1 more)\a") {
		t.Fatalf("the next tap does not count the held one: %q", got)
	}
	off := notifier{style: NotifyOff, blurred: true}
	if got := off.sequence(one, "S", now); got != "" {
		t.Fatalf("NotifyOff tapped: %q", got)
	}
}

func TestNotifySequence(t *testing.T) {
	tests := []struct {
		style       NotifyStyle
		title, body string
		want        string
	}{
		{NotifyBell, "t", "b", "\a"},
		{NotifyOSC9, "Approval needed", "rm -rf /", "\x1b]9;Approval needed · rm -rf /\a"},
		{NotifyOSC777, "Approval; needed", "a;b", "\x1b]777;notify;Approval needed;ab\a"},
		{NotifyOSC99, "Turn failed", "x", "\x1b]99;;Turn failed · x\x1b\\"},
		{NotifyOSC9, "evil\x1b]0;owned\a", "\x07bell\x1b[2J", "\x1b]9;evil · bell\a"},
		{NotifyOff, "t", "b", ""},
	}
	for _, tc := range tests {
		if got := notifySequence(tc.style, tc.title, tc.body); got != tc.want {
			t.Errorf("notifySequence(%d, %q, %q) = %q, want %q", tc.style, tc.title, tc.body, got, tc.want)
		}
	}
	if got := notifySequence(NotifyOSC9, "t", strings.Repeat("é", 300)); len(got) > 220 {
		t.Errorf("an unbounded notification: %d bytes", len(got))
	}
}

func TestNotifyStyleFromEnv(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want NotifyStyle
	}{
		{map[string]string{}, NotifyBell},
		{map[string]string{"LOOKOUT_NOTIFY": "off", "TERM_PROGRAM": "WezTerm"}, NotifyOff},
		{map[string]string{"LOOKOUT_NOTIFY": "osc777", "TMUX": "/tmp/t,1,0"}, NotifyOSC777},
		{map[string]string{"TMUX": "/tmp/t,1,0", "TERM_PROGRAM": "iTerm.app"}, NotifyBell},
		{map[string]string{"TERM": "xterm-kitty"}, NotifyOSC99},
		{map[string]string{"TERM_PROGRAM": "WezTerm"}, NotifyOSC9},
		{map[string]string{"WT_SESSION": "x"}, NotifyOSC9},
		{map[string]string{"TERM": "foot"}, NotifyOSC777},
		{map[string]string{"TERM": "rxvt-unicode-256color"}, NotifyOSC777},
		{map[string]string{"TERM": "xterm-256color"}, NotifyBell},
	}
	for _, tc := range tests {
		if got := NotifyStyleFromEnv(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("NotifyStyleFromEnv(%v) = %d, want %d", tc.env, got, tc.want)
		}
	}
}

// The source hears when the user looks at the session: a focus in or a
// key says they are here, a focus out that they left; only changes are
// told.
func TestModelTellsTheSourceWhenTheUserLooks(t *testing.T) {
	f := newFake(t)
	d := newDriver(t, 80, 24, Options{Source: f})
	d.send(tea.FocusMsg{})
	d.keys("a", "b")
	d.send(tea.BlurMsg{})
	d.keys("c")
	want := []bool{true, false, true}
	if got := f.Looking(); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("SetLooking calls %v, want %v", got, want)
	}
}
