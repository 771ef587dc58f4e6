package model

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestValidJSONAgreesWithEncodingJSON(t *testing.T) {
	for _, c := range []string{
		``, ` `, `null`, `nul`, `nullx`, `true`, `false`, `fals`, `0`, `-0`, `01`, `-`, `1.`, `1.5`, `.5`, `1e5`, `1E+5`, `1e`, `1e-`,
		`-12.5e-3`, `"x"`, `"x`, `"\u00e9"`, `"\u00g9"`, `"\u00e"`, `"\x"`, `"\/\b\f\n\r\t\"\\"`, "\"a\tb\"", "\"\xff\xfe\"",
		`{}`, `{ }`, `{"a":1}`, `{"a":1,}`, `{"a" 1}`, `{a:1}`, `{"a":1 "b":2}`, `[]`, `[1,2]`, `[1,]`, `[,1]`, `[1 2]`,
		` {"a" : [ 1 , {"b":null} ] } `, `{"a":1}}`, `[[[]]]`, `[[[]]`, "\t\r\n1\n", `1 2`, `"a"x`,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001),
		`{"jsonrpc":"2.0","method":"item/delta","params":{"sessionId":"s1","viewCursor":"v:s1:9","itemId":"a","delta":"x\ny"}}`,
	} {
		name := c
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			if got, want := validJSON([]byte(c)), json.Valid([]byte(c)); got != want {
				t.Fatalf("validJSON(%q) = %v, json.Valid = %v", c, got, want)
			}
		})
	}
}

// FuzzValidJSON: validJSON accepts exactly what json.Valid accepts.
func FuzzValidJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,-2.5e3,"x\u00e9\n",true,false,null]}`, `[`, `"\`, `1e+`, `{"a":}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, d []byte) {
		if got, want := validJSON(d), json.Valid(d); got != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid = %v", d, got, want)
		}
	})
}

func BenchmarkValidDeltaFrame(b *testing.B) {
	frame := []byte(`{"jsonrpc":"2.0","method":"item/delta","params":{"sessionId":"s1","viewCursor":"v:s1:123456","itemId":"item-1","delta":"streamed t"}}`)
	for _, c := range []struct {
		name  string
		valid func([]byte) bool
	}{{"validJSON", validJSON}, {"json.Valid", json.Valid}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(frame)))
			for b.Loop() {
				if !c.valid(frame) {
					b.Fatal("invalid")
				}
			}
		})
	}
}

func TestUnquoteStrAgreesWithEncodingJSON(t *testing.T) {
	// Values from checked frames: strings decode as encoding/json decodes
	// them, anything else is not a string.
	for _, c := range []string{`""`, `"plain"`, `"a\nb\tc\"d\\e\/f\bg\fh\ri"`, `"\u00e9\u2028"`, `"é中文"`, "\"\xff\"", `1`, `null`, `{"a":"b"}`} {
		t.Run(c, func(t *testing.T) {
			s, ok := unquoteStr([]byte(c))
			var want string
			err := json.Unmarshal([]byte(c), &want)
			isString := c[0] == '"'
			if ok != isString || ok && (err != nil || s.String() != want) {
				t.Fatalf("unquoteStr(%q) = %q, %v; json.Unmarshal: %q, %v", c, s.String(), ok, want, err)
			}
		})
	}
}

// FuzzUnquoteStr: a valid JSON string decodes, and compares, as
// encoding/json decodes it.
func FuzzUnquoteStr(f *testing.F) {
	for _, s := range []string{`"a\nb"`, `"\u00e9"`, "\"\xff\"", `"\"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, d []byte) {
		d = bytes.TrimSpace(d) // a member's value comes without white space
		if !json.Valid(d) || len(d) == 0 || d[0] != '"' {
			return
		}
		var want string
		if err := json.Unmarshal(d, &want); err != nil {
			t.Fatal(err)
		}
		if s, ok := unquoteStr(d); !ok || s.String() != want {
			t.Fatalf("unquoteStr(%q) = %q, %v; want %q", d, s.String(), ok, want)
		}
		if !jsonStringEquals(d, want) || jsonStringEquals(d, want+"x") || want != "" && jsonStringEquals(d, want[1:]) {
			t.Fatalf("jsonStringEquals(%q) disagrees with its decoding %q", d, want)
		}
	})
}
