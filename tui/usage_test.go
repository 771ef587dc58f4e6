package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

func TestSessionUsage(t *testing.T) {
	cases := []struct {
		name   string
		values map[string]string
		want   string
	}{
		{"nothing reported", nil, ""},
		{"model only", map[string]string{"model": `"gpt-5-codex"`}, "gpt-5-codex"},
		{"usage and context", map[string]string{"model": `"fake-model"`, "usage": `{"totalTokens":12430,"contextTokens":80000,"contextWindow":258400}`},
			"fake-model · 12k tokens · context 31%"},
		{"small counts", map[string]string{"usage": `{"totalTokens":950}`}, "950 tokens"},
		{"millions", map[string]string{"usage": `{"totalTokens":3140000}`}, "3.1M tokens"},
		{"a thousand and more", map[string]string{"usage": `{"totalTokens":1234}`}, "1.2k tokens"},
		{"no window, no percentage", map[string]string{"usage": `{"contextTokens":5}`}, ""},
		{"a hostile model name is one clean line", map[string]string{"model": "\"evil\\u001b]0;x\\u0007\\nname\""}, "evil name"},
		{"malformed usage is ignored", map[string]string{"model": `"m"`, "usage": `"lots"`}, "m"},
		{"cost", map[string]string{"model": `"claude"`, "usage": `{"totalTokens":1600}`, "costUsd": `0.0421`}, "claude · 1.6k tokens · $0.04"},
		{"cost alone", map[string]string{"costUsd": `1.5`}, "$1.50"},
		{"malformed cost is ignored", map[string]string{"model": `"m"`, "costUsd": `"a lot"`}, "m"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := &model.View{Values: map[string]json.RawMessage{}}
			for k, val := range c.values {
				v.Values[k] = json.RawMessage(val)
			}
			if got := sessionUsage(v); got != c.want {
				t.Errorf("sessionUsage = %q, want %q", got, c.want)
			}
		})
	}
}

// While a turn runs, what the agent says it is doing before it answers
// (starting its server) stands beside "running"; once cleared, or once
// the turn is over, it is gone.
func TestStatusBarShowsTheAgentsActivity(t *testing.T) {
	f := newFake(t)
	f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
	f.frame(model.MethodSessionState, obj{"activity": "starting the OpenCode server"})
	d := newDriver(t, 100, 24, Options{Source: f})
	if s := d.status(); !strings.Contains(s, "running") || !strings.Contains(s, "starting the OpenCode server") {
		t.Fatalf("status %q", s)
	}
	f.frame(model.MethodSessionState, obj{"activity": ""})
	d.pull()
	if s := d.status(); strings.Contains(s, "starting") || !strings.Contains(s, "running") {
		t.Fatalf("after the activity ended: status %q", s)
	}
	f.frame(model.MethodSessionState, obj{"activity": "stale"})
	f.frame(model.MethodTurnCompleted, obj{"turnId": "t1", "status": "completed"})
	d.pull()
	if s := d.status(); strings.Contains(s, "stale") {
		t.Fatalf("an activity shown with no turn running: %q", s)
	}
}
