package sync

import (
	"encoding/json"
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
		{"ephemeral", `{"protocolVersion":1,"durability":"ephemeral"}`, nil, "ephemeral", ""},
		{"no durability named", `{"protocolVersion":1}`, nil, "", ""},
		{"another version", `{"protocolVersion":2,"durability":"durable"}`, nil, "", "the host speaks protocol version 2, this client speaks 1"},
		{"no version", `{"durability":"durable"}`, nil, "", "the host speaks protocol version 0, this client speaks 1"},
		{"unreadable", `{"protocolVersion":"1"}`, nil, "", "malformed initialize result: json: cannot unmarshal string into Go struct field .protocolVersion of type int"},
		{"an error", ``, &model.RPCError{Code: model.CodeInvalidRequest, Message: "not yet"}, "", "the host refused initialize: not yet"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, r := decideInitialize(json.RawMessage(tc.res), tc.rerr)
			if d != tc.wantDurability || r != tc.wantRefusal {
				t.Errorf("decideInitialize = (%q, %q), want (%q, %q)", d, r, tc.wantDurability, tc.wantRefusal)
			}
		})
	}
}
