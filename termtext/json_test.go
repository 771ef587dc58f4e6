package termtext

import (
	"encoding/json"
	"testing"
)

func TestJSON(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"clean", `{"a":"b","n":[1,2]}`, `{"a":"b","n":[1,2]}`},
		{"escaped controls stay", `{"a":"\u001b]52;c;x\u0007"}`, `{"a":"\u001b]52;c;x\u0007"}`},
		{"raw C1 in a string", "{\"a\":\"\u009b2J\u009d0;t\u009c\"}", `{"a":"\u009b2J\u009d0;t\u009c"}`},
		{"raw DEL", "[\"a\x7f\"]", `["a\u007f"]`},
		{"invalid UTF-8", "[\"a\xff\x9bb\"]", `["a\ufffd\ufffdb"]`},
		{"whitespace between tokens", "{\n\t\"a\": 1\r\n}", "{\n\t\"a\": 1\r\n}"},
		{"raw C0 in a string", "[\"a\rb\x1bc\"]", `["a\u000db\u001bc"]`},
		{"escaped quote", "[\"a\\\"\x1b\"]", `["a\"\u001b"]`},
		{"raw bidi controls in a string", "[\"a\u202eb\u2066c\u200fd\u061ce\"]", `["a\u202eb\u2066c\u200fd\u061ce"]`},
		{"Hebrew kept", `["שלום"]`, `["שלום"]`},
		{"escaped backslash ends before the quote", "[\"a\\\\\", \"\x1b\"]", `["a\\", "\u001b"]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := string(JSON([]byte(c.in)))
			if got != c.want {
				t.Errorf("%s: JSON(%q) = %q, want %q", c.name, c.in, got, c.want)
				return
			}
			var a, b any
			if json.Unmarshal([]byte(c.in), &a) == nil {
				if err := json.Unmarshal([]byte(got), &b); err != nil {
					t.Errorf("%s: %q no longer decodes: %v", c.name, got, err)
				}
			}
		})
	}
}
