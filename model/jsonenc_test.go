package model

import (
	"bytes"
	"encoding/json"
	"testing"

	"pgregory.net/rapid"
)

// AppendJSONString writes what encoding/json writes (HTML escaping off),
// for any bytes, valid UTF-8 or not.
func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s string
		if rapid.Bool().Draw(t, "raw") {
			s = string(rapid.SliceOf(rapid.Byte()).Draw(t, "bytes"))
		} else {
			s = rapid.String().Draw(t, "s") + string(rapid.SampledFrom([]rune{'\u2028', '\u2029', '<', '&', '"', '\\', '\x00', '\b', '\f', '\x1f', 'é'}).Draw(t, "r"))
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := AppendJSONString(nil, s); string(got) != string(bytes.TrimRight(want.Bytes(), "\n")) {
			t.Fatalf("AppendJSONString(%q) = %s, encoding/json says %s", s, got, want.Bytes())
		}
	})
}
