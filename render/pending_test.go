package render

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/themes"
)

// A pending row is Pending, or FailedPrompt with a note, with the selection
// marker in its gutter when selected.
func TestPendingRowIsPendingOrFailedWithTheMarker(t *testing.T) {
	p := model.PendingEntry{CommandID: "c1", Text: "run the tests", Status: model.PendingQueued}
	note := &FailedNote{Verdict: "rejected", Reason: "the agent is busy", Hint: "e puts it back"}
	for _, tc := range []struct {
		name     string
		note     *FailedNote
		selected bool
		want     func(r *Renderer) []string
	}{
		{"pending", nil, false, func(r *Renderer) []string { return r.Pending(p, 40) }},
		{"failed", note, false, func(r *Renderer) []string { return r.FailedPrompt(p, note.Verdict, note.Reason, note.Hint, 40) }},
		{"pending selected", nil, true, nil},
		{"failed selected", note, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := New(themes.Dark())
			got := r.PendingRow(p, tc.note, 40, ItemOptions{Selected: tc.selected})
			checkWidth(t, got, 40)
			if tc.want != nil {
				if want := tc.want(r); !slices.Equal(got, want) {
					t.Fatalf("PendingRow\n%q\nwant\n%q", got, want)
				}
				return
			}
			plain := r.PendingRow(p, tc.note, 40, ItemOptions{})
			if len(got) != len(plain) {
				t.Fatalf("selected %d lines, unselected %d", len(got), len(plain))
			}
			for i, l := range got {
				s := ansi.Strip(l)
				if !strings.HasPrefix(s, "▌ ") {
					t.Fatalf("line %d %q has no selection marker", i, s)
				}
				if s[len("▌ "):] != ansi.Strip(plain[i])[2:] {
					t.Fatalf("line %d %q is not %q behind the marker", i, s, ansi.Strip(plain[i]))
				}
			}
		})
	}
}

// PendingRow renders a row again only when what it shows changes.
func TestPendingRowCache(t *testing.T) {
	r := New(themes.Dark())
	p := model.PendingEntry{CommandID: "c1", Text: "run the tests, then update the changelog with the fix", Status: model.PendingSending}
	first := r.PendingRow(p, nil, 40, ItemOptions{})
	if again := r.PendingRow(p, nil, 40, ItemOptions{}); &again[0] != &first[0] {
		t.Fatal("an unchanged row was rendered again")
	}
	queued := p
	queued.Status = model.PendingQueued
	for name, lines := range map[string][]string{
		"status":    r.PendingRow(queued, nil, 40, ItemOptions{}),
		"width":     r.PendingRow(p, nil, 30, ItemOptions{}),
		"selection": r.PendingRow(p, nil, 40, ItemOptions{Selected: true}),
		"failed":    r.PendingRow(p, &FailedNote{Verdict: "not run"}, 40, ItemOptions{}),
	} {
		if slices.Equal(lines, first) {
			t.Errorf("a change of %s kept the old lines", name)
		}
	}
	r.SetTheme(themes.Light())
	if again := r.PendingRow(p, nil, 40, ItemOptions{}); &again[0] == &first[0] {
		t.Fatal("a theme change kept the old theme's lines")
	}
}
