package bridge

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestJSONString(t *testing.T) {
	for raw, want := range map[string]string{`"th-1"`: "th-1", `""`: "", `42`: "", `null`: "", ``: ""} {
		if got := JSONString(json.RawMessage(raw)); got != want {
			t.Errorf("JSONString(%s) = %q, want %q", raw, got, want)
		}
	}
}

func TestTitle(t *testing.T) {
	for _, c := range []struct{ prompt, want string }{
		{"fix the flaky test", "fix the flaky test"},
		{"  \n  first line  \nsecond line", "first line"},
		{strings.Repeat("long ", 30), strings.Repeat("long ", 16)[:80] + "…"},
		{"", ""},
	} {
		if got := Title(c.prompt); got != c.want {
			t.Errorf("Title(%q) = %q, want %q", c.prompt, got, c.want)
		}
	}
}

func TestLogger(t *testing.T) {
	if Logger(nil) == nil {
		t.Fatal("no logger for nil")
	}
	Logger(nil).Info("discarded")
}
