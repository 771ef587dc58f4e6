package model

import (
	"encoding/json"
	"reflect"
	"testing"
)

// DecodePage reads what encoding/json reads from a view/page result, and
// refuses what it refuses.
func TestDecodePage(t *testing.T) {
	el := func(seq, prev int64, params string) PageElement {
		f, err := ParseFrame([]byte(frame(MethodItemCompleted, seq, prev, params)))
		if err != nil {
			t.Fatal(err)
		}
		return PageElement{Method: f.Method, Params: f.Params}
	}
	page := Page{Epoch: "e-1", StartCursor: FormatCursor(sid, 1), EndCursor: FormatCursor(sid, 2), HasNewer: true,
		Events: []PageElement{
			el(1, 0, item("a", KindUserMessage, 1, "completed", `"position":1,"text":"hi \"there\"\n"`)),
			el(2, 1, item("b", KindAgentMessage, 1, "completed", `"position":2,"text":"é \u2028"`)),
		}}
	cases := []struct {
		name string
		raw  string
		ok   bool
	}{
		{"a page", string(page.AppendJSON(nil)), true},
		{"spaced out, nulls, unknown members", `{ "epoch" : "e-1", "events" : [ { "method" : "x", "params" : null } ], "startCursor": null, "endCursor": null, "hasNewer": null, "hasOlder": false, "extra": {"a": [1]} }`, true},
		{"no events", `{"epoch":"e-1","events":[],"hasNewer":false}`, true},
		{"not JSON", `{"epoch":`, false},
		{"not an object", `[1,2]`, false},
		{"events not an array", `{"events":{}}`, false},
		{"an element not an object", `{"events":[1]}`, false},
		{"a method not a string", `{"events":[{"method":1,"params":{}}]}`, false},
		{"hasNewer not a boolean", `{"hasNewer":"yes"}`, false},
		{"epoch not a string", `{"epoch":7}`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DecodePage([]byte(c.raw))
			if f, ferr := ParseFrame([]byte(`{"jsonrpc":"2.0","id":1,"result":` + c.raw + `}`)); ferr == nil {
				fromFrame, err2 := f.Page()
				if (err2 == nil) != (err == nil) || (err == nil && !reflect.DeepEqual(fromFrame, got)) {
					t.Fatalf("Frame.Page = %+v, %v; DecodePage = %+v, %v", fromFrame, err2, got, err)
				}
			}
			var want Page
			stdErr := json.Unmarshal([]byte(c.raw), &want)
			if (err == nil) != c.ok || (stdErr == nil) != c.ok {
				t.Fatalf("DecodePage error %v, encoding/json error %v, want ok=%v", err, stdErr, c.ok)
			}
			if !c.ok {
				return
			}
			for i := range got.Events {
				if !got.Events[i].valid {
					t.Errorf("element %d not marked checked", i)
				}
				got.Events[i].valid = false
			}
			if !reflect.DeepEqual(*got, want) {
				t.Fatalf("DecodePage = %+v\nencoding/json = %+v", *got, want)
			}
			for i, e := range got.Events {
				ev, err := e.Event()
				want, wantErr := DecodeNotification(e.Method, e.Params)
				if (err == nil) != (wantErr == nil) || !reflect.DeepEqual(ev, want) {
					t.Fatalf("element %d: Event() = %+v, %v; DecodeNotification = %+v, %v", i, ev, err, want, wantErr)
				}
			}
		})
	}
}
