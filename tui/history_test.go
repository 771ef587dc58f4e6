package tui

import (
	"strings"
	"testing"
)

func TestMergePrompts(t *testing.T) {
	cases := []struct {
		name           string
		session, local []string
		want           string
	}{
		{"session only", []string{"a", "b"}, nil, "a|b"},
		{"local only", nil, []string{"x"}, "x"},
		{"sent here: once", []string{"a", "b"}, []string{"b"}, "a|b"},
		{"in flight or cleared: after", []string{"a", "b"}, []string{"b", "draft"}, "a|b|draft"},
		{"repeats in a row collapse", []string{"a", "a", "b"}, nil, "a|b"},
		{"blank skipped", []string{" ", "a"}, []string{""}, "a"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := strings.Join(mergePrompts(c.session, c.local), "|"); got != c.want {
				t.Fatalf("mergePrompts = %q, want %q", got, c.want)
			}
		})
	}
}

// up in an empty composer walks the session's earlier prompts too, not
// only those sent by this process.
func TestHistoryIncludesSessionPrompts(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 3)
	d := newDriver(t, 60, 20, Options{Source: f})
	d.keys("up")
	if v := d.m.comp.value(); v != "question 3" {
		t.Fatalf("up shows %q, want the session's last prompt", v)
	}
	d.wantScreen("history 3/3")
	d.keys("up", "up", "up")
	if v := d.m.comp.value(); v != "question 1" {
		t.Fatalf("up x4 shows %q, want the first prompt", v)
	}
	d.keys("down")
	if v := d.m.comp.value(); v != "question 2" {
		t.Fatalf("down shows %q", v)
	}
	// A draft cleared with ctrl+c comes after the session's prompts.
	d.keys("down", "down")
	d.typeText("unsent idea")
	d.keys("ctrl+c", "up")
	if v := d.m.comp.value(); v != "unsent idea" {
		t.Fatalf("up after clearing shows %q, want the cleared draft", v)
	}
	d.keys("up")
	if v := d.m.comp.value(); v != "question 3" {
		t.Fatalf("then %q, want question 3", v)
	}
}
