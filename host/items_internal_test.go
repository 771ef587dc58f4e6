package host

import (
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

func TestCutUTF8KeepsAValidPrefix(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		n := rapid.IntRange(0, len(s)+2).Draw(t, "n")
		got := cutUTF8(s, n)
		if len(got) > n || !utf8.ValidString(got) || got != s[:len(got)] {
			t.Fatalf("cutUTF8(%q, %d) = %q", s, n, got)
		}
		if len(s) > n && len(got) < n-utf8.UTFMax+1 {
			t.Fatalf("cut too much: %q at %d gives %q", s, n, got)
		}
	})
}

func TestFieldCutterCutsEveryStringAndNamesIt(t *testing.T) {
	long := string(make([]byte, FieldBound+10))
	c := &fieldCutter{kind: "toolCall", bounds: boundsFor(0), wireRoom: textWireBound}
	v := c.value("x", map[string]any{"a": long, "b": []string{"short", long}, "c": 3})
	m := v.(map[string]any)
	if len(m["a"].(string)) != FieldBound || len(m["b"].([]any)[1].(string)) != FieldBound || m["c"] != 3 {
		t.Fatalf("bounded value %v", m)
	}
	if len(c.cut) != 2 {
		t.Fatalf("cut paths %v", c.cut)
	}
	for _, p := range c.cut {
		if p != "x.a" && p != "x.b.1" {
			t.Fatalf("cut path %q", p)
		}
	}
}
