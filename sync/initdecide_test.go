package sync

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

func TestDecideInitialize(t *testing.T) {
	tests := []struct {
		name           string
		res            string
		rerr           *model.RPCError
		wantDurability string
		wantRefusal    string
	}{
		{"durable", `{"protocolVersion":1,"durability":"durable","features":{}}`, nil, "durable", ""},
		{"with session/focus", `{"protocolVersion":1,"durability":"durable","features":{"sessionFocus":true}}`, nil, "durable", ""},
		{"ephemeral", `{"protocolVersion":1,"durability":"ephemeral"}`, nil, "ephemeral", ""},
		{"no durability named", `{"protocolVersion":1}`, nil, "", ""},
		{"another version", `{"protocolVersion":2,"durability":"durable"}`, nil, "", "the host speaks protocol version 2, this client speaks 1"},
		{"no version", `{"durability":"durable"}`, nil, "", "the host speaks protocol version 0, this client speaks 1"},
		{"unreadable", `{"protocolVersion":"1"}`, nil, "", "malformed initialize result: json: cannot unmarshal string into Go struct field .protocolVersion of type int"},
		{"an error", ``, &model.RPCError{Code: model.CodeInvalidRequest, Message: "not yet"}, "", "the host refused initialize: not yet"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, r := decideInitialize(json.RawMessage(tc.res), tc.rerr)
			if a.durability != tc.wantDurability || r != tc.wantRefusal {
				t.Errorf("decideInitialize = (%+v, %q), want (%q, %q)", a, r, tc.wantDurability, tc.wantRefusal)
			}
			if want := strings.Contains(tc.res, `"sessionFocus":true`); a.sessionFocus != want {
				t.Errorf("sessionFocus %v, want %v", a.sessionFocus, want)
			}
		})
	}
}
