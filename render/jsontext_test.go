package render

import "testing"

func TestReadableJSON(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", `{"a":"b"}`, `{"a":"b"}`},
		{"html escapes", `{"command":"a \u003e b \u0026\u0026 \u003cc\u003e"}`, `{"command":"a > b && <c>"}`},
		{"upper case hex", `{"c":"\u003E"}`, `{"c":">"}`},
		{"escaped backslash stays", `{"c":"\\u003e"}`, `{"c":"\\u003e"}`},
		{"backslash then escape", `{"c":"\\\u003e"}`, `{"c":"\\>"}`},
		{"other escapes stay", `{"c":"\u00e9\n\"\u003e"}`, `{"c":"\u00e9\n\">"}`},
		{"keys too", `{"\u0026":1}`, `{"&":1}`},
		{"not JSON", `a \u003e b`, `a \u003e b`},
		{"cut JSON", `{"c":"a \u003e`, `{"c":"a \u003e`},
	}
	for _, c := range cases {
		if got := readableJSON(c.in); got != c.want {
			t.Errorf("%s: readableJSON(%s) = %s, want %s", c.name, c.in, got, c.want)
		}
	}
}
