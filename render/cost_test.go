package render

import (
	"encoding/json"
	"testing"
)

func TestCostText(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{"0.4213", "$0.42"}, {"0", "$0.00"}, {"0.001", "<$0.01"}, {"0.005", "$0.01"},
		{"12.5", "$12.50"}, {"-1", ""}, {`"1.0"`, ""}, {"null", ""}, {"", ""}, {"1e400", ""},
	} {
		var raw json.RawMessage
		if c.raw != "" {
			raw = json.RawMessage(c.raw)
		}
		if got := CostText(raw); got != c.want {
			t.Errorf("CostText(%s) = %q, want %q", c.raw, got, c.want)
		}
	}
}
