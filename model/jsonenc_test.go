package model

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// A JSON string copied as it is (canonicalString) is exactly what decoding
// and re-encoding it gives, whatever its spelling: escapes short or long,
// upper- or lower-case hex, control characters, U+2028.
func TestCanonicalStringCopiesOnlyCanonicalSpellings(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s") + string(rapid.SampledFrom([]rune{'\u2028', '\x00', '\b', '\n', '\x1f', '\x7f', '"', '\\', '/', 'é'}).Draw(t, "r"))
		spellings := [][]byte{AppendJSONString(nil, s)}
		std, err := json.Marshal(s) // HTML-escaped: another spelling
		if err != nil {
			t.Fatal(err)
		}
		spellings = append(spellings, std)
		var long []byte // every character as \uXXXX (upper-case hex)
		long = append(long, '"')
		for _, r := range s {
			if r > 0xffff {
				long = append(long, string(r)...)
				continue
			}
			long = fmt.Appendf(long, `\u%04X`, r)
		}
		spellings = append(spellings, append(long, '"'))
		want := AppendJSONString(nil, s)
		if !canonicalString(want) {
			t.Fatalf("the canonical spelling %s is not copied as it is", want)
		}
		for _, raw := range spellings {
			if got := appendCanonicalRaw(nil, raw); !bytes.Equal(got, want) {
				t.Fatalf("appendCanonicalRaw(%s) = %s, want %s", raw, got, want)
			}
		}
	})
}
