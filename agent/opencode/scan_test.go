package opencode

import (
	"encoding/json"
	"testing"
)

// The scanners read what json.Unmarshal reads, and step aside otherwise.
func TestScannersAgreeWithUnmarshal(t *testing.T) {
	for _, data := range []string{
		`{"directory":"/w","payload":{"type":"message.part.delta","properties":{"sessionID":"s","partID":"p","field":"text","delta":"h\u00e9\n"}}}`,
		`{"payload":{"type":"server.connected","properties":{}}}`,
		`{"directory":null,"payload":{"type":"session.idle","properties":{"info":{"sessionID":"s"}}},"x":[1,"}"]}`,
	} {
		got, ok := decodeGlobalEvent([]byte(data))
		var want globalEvent
		if err := json.Unmarshal([]byte(data), &want); err != nil {
			t.Fatal(err)
		}
		if !ok || got.Directory != want.Directory || got.Payload.Type != want.Payload.Type || string(got.Payload.Properties) != string(want.Payload.Properties) {
			t.Fatalf("%s: decoded %+v (%v), json.Unmarshal %+v", data, got, ok, want)
		}
	}
	for _, odd := range []string{`not json`, `{"payload":{"type":3}}`, `{"directory":["x"]}`} {
		if _, ok := decodeGlobalEvent([]byte(odd)); ok {
			t.Fatalf("%s read by the scanner", odd)
		}
	}
	for _, tc := range []struct{ props, want string }{
		{`{"sessionID":"top","part":{"sessionID":"p"}}`, "top"},
		{`{"part":{"sessionID":"p","text":"x"},"info":{"sessionID":"i"}}`, "p"},
		{`{"info":{"sessionID":"i"}}`, "i"},
		{`{"part":null,"other":1}`, ""},
		{`{"part":{"sessionID":7}}`, ""}, // not a string: json.Unmarshal fails too
	} {
		if got := sessionOf(json.RawMessage(tc.props)); got != tc.want {
			t.Fatalf("sessionOf(%s) = %q, want %q", tc.props, got, tc.want)
		}
	}
	var a, b string
	if !stringMembers([]byte(`{"a":"x\"y","b":null,"c":[1]}`), map[string]*string{"a": &a, "b": &b}) || a != `x"y` || b != "" {
		t.Fatalf("stringMembers: a %q b %q", a, b)
	}
	if stringMembers([]byte(`{"a":1}`), map[string]*string{"a": &a}) {
		t.Fatal("a number read as a string")
	}
}
