package model

import (
	"bytes"
	"testing"
)

// Releasing the settled head and writing it between AppendCanonicalHead
// and AppendCanonicalTail gives the bytes of Encode on a State that kept
// everything.
func TestReleaseSettledKeepsTheCanonicalEncoding(t *testing.T) {
	frames := []string{
		frame(MethodItemCompleted, 1, 0, item("a", KindUserMessage, 1, "completed", `"position":1,"text":"hi"`)),
		frame(MethodItemCompleted, 2, 1, item("b", KindAgentMessage, 1, "completed", `"position":2,"text":"one"`)),
		frame(MethodItemStarted, 3, 2, item("c", KindToolCall, 1, "running", `"position":3,"toolName":"sh"`)),
		frame(MethodItemCompleted, 4, 3, item("d", KindAgentMessage, 1, "completed", `"position":4,"text":"two"`)),
		frame(MethodSessionState, 5, 4, `"title":"T"`),
	}
	whole := fold(t, frames...)
	streamed := NewState(sid)
	var released []*Item
	for i, f := range frames {
		ev, err := DecodeFrame([]byte(f))
		if err != nil {
			t.Fatal(err)
		}
		if err := streamed.Apply(ev); err != nil {
			t.Fatal(err)
		}
		got := streamed.ReleaseSettled()
		released = append(released, got...)
		// a and b settle at once; c is open, so d waits behind it.
		if want := map[int]int{0: 1, 1: 1}[i]; len(got) != want {
			t.Fatalf("after frame %d: released %d items, want %d", i, len(got), want)
		}
	}
	if streamed.Len() != 2 || streamed.Item("a") != nil || streamed.Item("c") == nil {
		t.Fatalf("held %d items after releasing", streamed.Len())
	}
	enc := streamed.AppendCanonicalHead(nil)
	for i, it := range append(released, streamed.Items()...) {
		if i > 0 {
			enc = append(enc, ',')
		}
		enc = it.AppendJSON(enc)
	}
	enc = streamed.AppendCanonicalTail(enc)
	if want := whole.Encode(); !bytes.Equal(enc, want) {
		t.Fatalf("streamed encoding\n%s\nwant\n%s", enc, want)
	}
}
