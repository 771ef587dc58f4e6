package host

import (
	"testing"
)

func TestScanItemMeta(t *testing.T) {
	for _, tc := range []struct {
		name    string
		params  string
		want    itemMeta
		wantErr bool
	}{
		{"as the host writes it",
			`{"sessionId":"s","viewCursor":"s:7","prevCursor":"s:6","item":{"commandId":"c1","itemId":"i1","kind":"userMessage","position":7,"recordedAt":"2026-01-02T03:04:05.000Z","revision":1,"status":"completed","text":"hi","turnId":"t"}}`,
			itemMeta{ID: "i1", Kind: "userMessage", CommandID: "c1", RecordedAt: "2026-01-02T03:04:05.000Z", Position: 7}, false},
		{"nested values, escapes and spaces are skipped",
			` { "item" : { "args" : {"a":[1,{"b":"}]\"{"}],"c":null} , "itemId" : "i\u00e92" , "kind":"toolCall", "position": 12 } , "sessionId":"s" } `,
			itemMeta{ID: "ié2", Kind: "toolCall", Position: 12}, false},
		{"no position", `{"item":{"itemId":"i3","kind":"agentMessage","position":null}}`,
			itemMeta{ID: "i3", Kind: "agentMessage"}, false},
		{"no item", `{"sessionId":"s"}`, itemMeta{}, true},
		{"an item without an id", `{"item":{"kind":"agentMessage"}}`, itemMeta{Kind: "agentMessage"}, true},
		{"a position that is not a number", `{"item":{"itemId":"i","position":"7"}}`, itemMeta{ID: "i"}, true},
		{"cut short", `{"item":{"itemId":"i","text":"abc`, itemMeta{}, true},
		{"not an object", `["item"]`, itemMeta{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := scanItemMeta([]byte(tc.params))
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error %v", err, tc.wantErr)
			}
			if !tc.wantErr && got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
