package sync

import (
	"encoding/json"
	"strconv"

	"github.com/lookout-sh/lookout/model"
)

// protocolVersion is the protocol version this client speaks.
const protocolVersion = 1

// decideInitialize reads an initialize answer: the host's durability
// profile, or why this client cannot go on with the host (a refusal: an
// error, an unreadable result or another protocol version). A refusal is
// final for the link; the caller says it and stops.
func decideInitialize(res json.RawMessage, rerr *model.RPCError) (durability, refusal string) {
	if rerr != nil {
		return "", "the host refused initialize: " + rerr.Message
	}
	var r struct {
		ProtocolVersion int    `json:"protocolVersion"`
		Durability      string `json:"durability"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return "", "malformed initialize result: " + err.Error()
	}
	if r.ProtocolVersion != protocolVersion {
		return "", "the host speaks protocol version " + strconv.Itoa(r.ProtocolVersion) +
			", this client speaks " + strconv.Itoa(protocolVersion)
	}
	return r.Durability, ""
}
