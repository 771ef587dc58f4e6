package termtext

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/termtext/termtexttest"
)

// TestHostileInputs feeds every hostile input through every function:
// nothing that a terminal would execute comes out, and the one-line forms
// hold no line break either.
func TestHostileInputs(t *testing.T) {
	for _, c := range termtexttest.Cases() {
		for _, f := range []struct {
			name  string
			fn    func(string) string
			check func(string) error
		}{
			{"Text", Text, termtexttest.CheckPlain},
			{"Line", Line, termtexttest.CheckLine},
			{"Visible", Visible, termtexttest.CheckPlain},
			{"VisibleLine", VisibleLine, termtexttest.CheckLine},
			{"JSON", func(s string) string { return string(JSON(rawJSON(s))) }, termtexttest.CheckLine},
		} {
			if err := f.check(f.fn(c.In)); err != nil {
				t.Errorf("%s(%s %q): %v", f.name, c.Name, c.In, err)
			}
		}
		if got := Visible(c.In); !strings.Contains(c.In, termtexttest.Marker) || !strings.Contains(got, termtexttest.Marker) {
			t.Errorf("Visible(%s) lost text: %q", c.Name, got)
		}
	}
}

// rawJSON is s as a JSON string holding its characters raw where JSON
// allows it (encoding/json escapes C0, not C1 or DEL).
func rawJSON(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// FuzzSanitisers: for any input, the functions keep their promises: no
// control character out (LF only from the multi-line forms), valid UTF-8,
// Text and Line idempotent, and JSON text still decodes to the same value.
func FuzzSanitisers(f *testing.F) {
	for _, c := range termtexttest.Cases() {
		f.Add(c.In)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, out := range map[string]string{"Text": Text(s), "Visible": Visible(s)} {
			if err := termtexttest.CheckPlain(out); err != nil {
				t.Fatalf("%s(%q): %v", name, s, err)
			}
		}
		for name, out := range map[string]string{"Line": Line(s), "VisibleLine": VisibleLine(s)} {
			if err := termtexttest.CheckLine(out); err != nil {
				t.Fatalf("%s(%q): %v", name, s, err)
			}
		}
		if tx := Text(s); Text(tx) != tx {
			t.Fatalf("Text is not idempotent on %q", s)
		}
		if l := Line(s); Line(l) != l {
			t.Fatalf("Line is not idempotent on %q", s)
		}
		raw := rawJSON(s)
		var want, got string
		if json.Unmarshal(raw, &want) != nil {
			t.Fatalf("bad JSON %q", raw)
		}
		safe := JSON(raw)
		if err := termtexttest.CheckLine(string(safe)); err != nil {
			t.Fatalf("JSON(%q): %v", raw, err)
		}
		if err := json.Unmarshal(safe, &got); err != nil || got != want {
			t.Fatalf("JSON(%q) = %q decodes to %q (%v), want %q", raw, safe, got, err, want)
		}
	})
}
