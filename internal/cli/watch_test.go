package cli

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lookout-sh/lookout/model"
)

func TestFirstLine(t *testing.T) {
	long := strings.Repeat("a", 79) + "é" + "tail" // "é" starts at byte 79 and ends past 80
	cases := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"one short line", "hello", "hello"},
		{"the first of several lines", "first\nsecond", "first"},
		{"exactly the bound", strings.Repeat("x", 80), strings.Repeat("x", 80)},
		{"cut past the bound", strings.Repeat("x", 81), strings.Repeat("x", 80) + "…"},
		{"a rune across the bound is left out whole", long, strings.Repeat("a", 79) + "…"},
		{"multi-byte runes", strings.Repeat("日", 30), strings.Repeat("日", 26) + "…"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := firstLine(c.in)
			if got != c.want {
				t.Fatalf("firstLine(%q) = %q, want %q", c.in, got, c.want)
			}
			if !utf8.ValidString(got) {
				t.Fatalf("firstLine(%q) = %q is not valid UTF-8", c.in, got)
			}
		})
	}
}

// watch's readable line says what was cut: the fields the host cut, and a
// delta this client cut at its bound; an event held whole says nothing.
func TestDescribeEventSaysWhatWasCut(t *testing.T) {
	decode := func(raw string) *model.Item {
		it, err := model.DecodeItem([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		return it
	}
	cut := decode(`{"itemId":"i","kind":"agentMessage","revision":2,"status":"inProgress","text":"long answer","truncated":["text"]}`)
	whole := decode(`{"itemId":"i","kind":"agentMessage","revision":1,"status":"inProgress","text":"short answer"}`)
	for _, tc := range []struct {
		name string
		ev   *model.Event
		want string // "" for no note
	}{
		{"an item the host cut", &model.Event{Seq: 5, Method: model.MethodItemUpdated, Item: cut}, `"long answer" [text truncated by host]`},
		{"an item held whole", &model.Event{Seq: 4, Method: model.MethodItemStarted, Item: whole}, ""},
		{"a delta this client cut", &model.Event{Seq: 6, Method: model.MethodItemDelta, ItemID: "i", Field: "text", Delta: "tail",
			Cut: &model.ItemCut{Fields: []string{"text"}, FieldBound: 1 << 20}}, `"tail" [text cut by Lookout at 1 MiB: the host sent more than the protocol allows]`},
		{"a delta held whole", &model.Event{Seq: 6, Method: model.MethodItemDelta, ItemID: "i", Field: "text", Delta: "tail"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := describeEvent(tc.ev)
			if (tc.want == "" && strings.Contains(got, "[")) || (tc.want != "" && !strings.HasSuffix(got, tc.want)) {
				t.Fatalf("describeEvent = %q, want it to end %q", got, tc.want)
			}
		})
	}
}

// watch's line for a plan revision gives its progress and its current
// step.
func TestDescribeEventGivesAPlansProgress(t *testing.T) {
	it, err := model.DecodeItem([]byte(`{"itemId":"p","kind":"plan","revision":2,"status":"inProgress","steps":[` +
		`{"text":"Read","status":"completed"},{"text":"Fix","status":"inProgress"},{"text":"Test","status":"pending"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	got := describeEvent(&model.Event{Seq: 7, Method: model.MethodItemUpdated, Item: it})
	if want := `plan p r2 inProgress 1/3 inProgress "Fix"`; !strings.HasSuffix(got, want) {
		t.Fatalf("describeEvent = %q, want it to end %q", got, want)
	}
}
