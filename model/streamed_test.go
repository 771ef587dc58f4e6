package model

import (
	"encoding/json"
	"testing"
)

func TestJSONStringEquals(t *testing.T) {
	for _, c := range []struct {
		name, raw, s string
		want         bool
	}{
		{"plain", `"hello"`, "hello", true},
		{"empty", `""`, "", true},
		{"differs", `"hello"`, "hellp", false},
		{"shorter", `"hell"`, "hello", false},
		{"longer", `"hello!"`, "hello", false},
		{"escapes", `"a\nb\t\"c\"\\d\/e\r\b\f"`, "a\nb\t\"c\"\\d/e\r\b\f", true},
		{"escape differs", `"a\nb"`, "a\tb", false},
		{"escape at the end of s", `"ab\n"`, "ab", false},
		{"non-ASCII", `"café ✓"`, "café ✓", true},
		{"non-ASCII differs", `"café"`, "cafè", false},
		{"non-ASCII cut short", `"caf✓"`, "caf\xe2\x9c", false},
		{"\\u escape", `"caf\u00e9"`, "café", true},
		{"\\u surrogate pair", `"\ud83d\ude00!"`, "😀!", true},
		{"\\u escape differs", `"caf\u00e8"`, "café", false},
		{"invalid UTF-8 decodes to U+FFFD", "\"a\xffb\"", "a\uFFFDb", true},
		{"invalid UTF-8 is not its bytes", "\"a\xffb\"", "a\xffb", false},
		{"a number", `12`, "12", false},
		{"null", `null`, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := jsonStringEquals([]byte(c.raw), c.s); got != c.want {
				t.Fatalf("jsonStringEquals(%s, %q) = %v, want %v", c.raw, c.s, got, c.want)
			}
			// It agrees with decoding wherever raw is a JSON string.
			var d string
			if json.Unmarshal([]byte(c.raw), &d) == nil && c.raw[0] == '"' && (d == c.s) != c.want {
				t.Fatalf("decoding %s gives %q: disagrees", c.raw, d)
			}
		})
	}
}

// A completed message that repeats its streamed text keeps the streamed
// value, so reading its text decodes nothing; a completion that restates
// the text differently wins as before.
func TestCompletedItemKeepsItsStreamedText(t *testing.T) {
	// streamed returns the state after the completion and the text's
	// streamed value before it.
	streamed := func(final string) (*State, *Str) {
		s := fold(t,
			frame(MethodItemStarted, 1, 0, item("m", KindAgentMessage, 1, "inProgress", `"text":""`)),
			frame(MethodItemDelta, 2, -1, delta("m", "", "line \"one\"\n")),
			frame(MethodItemDelta, 3, -1, delta("m", "", "line two ✓")),
		)
		before := s.Item("m").fields["text"].(*Str)
		mustApply(t, s, frame(MethodItemCompleted, 4, 1, item("m", KindAgentMessage, 2, "completed", `"text":`+final)))
		return s, before
	}
	for _, c := range []struct {
		name, final, want string
		kept              bool
	}{
		{"same text", `"line \"one\"\nline two ✓"`, "line \"one\"\nline two ✓", true},
		{"same text, \\u escaped", `"line \"one\"\u000aline two \u2713"`, "line \"one\"\nline two ✓", true},
		{"other text", `"line one, corrected"`, "line one, corrected", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, before := streamed(c.final)
			it := s.Item("m")
			if got := it.Text(); got != c.want {
				t.Fatalf("text %q, want %q", got, c.want)
			}
			if kept := sharesBytes(it.fields["text"], before); kept != c.kept {
				t.Fatalf("streamed value kept: %v, want %v", kept, c.kept)
			}
			if !it.Final || it.Status != "completed" || it.Revision != 2 {
				t.Fatalf("final %v status %q revision %d", it.Final, it.Status, it.Revision)
			}
			if allocs := testing.AllocsPerRun(10, func() { _ = it.Text() }); c.kept && allocs != 0 {
				t.Fatalf("reading the kept text allocates %v times", allocs)
			}
			// The canonical encoding is the completed object's either way.
			var enc struct{ Text string }
			if err := json.Unmarshal(it.AppendJSON(nil), &enc); err != nil || enc.Text != c.want {
				t.Fatalf("encoded text %q (%v), want %q", enc.Text, err, c.want)
			}
		})
	}
}

// An item/updated that repeats the streamed text shares the streamed value
// with the copy it replaces; deltas after it extend the new copy only.
func TestUpdatedItemSharesItsStreamedTextSafely(t *testing.T) {
	s := fold(t,
		frame(MethodItemStarted, 1, 0, item("m", KindAgentMessage, 1, "inProgress", `"text":""`)),
		frame(MethodItemDelta, 2, -1, delta("m", "", "ab")),
	)
	before := s.Item("m")
	mustApply(t, s, frame(MethodItemUpdated, 3, 1, item("m", KindAgentMessage, 2, "inProgress", `"text":"ab"`)))
	mustApply(t, s, frame(MethodItemDelta, 4, -1, delta("m", "", "c")))
	if got := s.Item("m").Text(); got != "abc" {
		t.Fatalf("text after the update and a delta %q, want abc", got)
	}
	if !sharesBytes(s.Item("m").fields["text"], before.fields["text"].(*Str)) {
		t.Fatal("the update did not keep the streamed value")
	}
	if got := before.Text(); got != "ab" {
		t.Fatalf("the replaced copy's text changed to %q", got)
	}
}

// sharesBytes reports whether v is a Str over the same bytes as s.
func sharesBytes(v any, s *Str) bool {
	x, ok := v.(*Str)
	return ok && len(x.b) > 0 && len(s.b) > 0 && &x.b[0] == &s.b[0]
}

func TestJSONStringEqualsAllocatesNothing(t *testing.T) {
	raw, s := []byte(`"line \"one\"\nline two ✓"`), "line \"one\"\nline two ✓"
	if allocs := testing.AllocsPerRun(20, func() {
		if !jsonStringEquals(raw, s) {
			t.Fatal("not equal")
		}
	}); allocs != 0 {
		t.Fatalf("comparing allocates %v times", allocs)
	}
}
