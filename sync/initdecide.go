package sync

import (
	"encoding/json"
	"strconv"

	"github.com/lookout-sh/lookout/model"
)

// protocolVersion is the protocol version this client speaks.
const protocolVersion = 1

// initAnswer is what the client keeps of an initialize answer.
type initAnswer struct {
	durability string
	// sessionFocus: the host takes session/focus (features.sessionFocus).
	sessionFocus bool
	// agentCommands: the host runs agent commands (features.agentCommands).
	agentCommands bool
	// steer: the host and its agent take input into a running turn
	// (features.steer).
	steer bool
}

// decideInitialize reads an initialize answer: what the client keeps of
// it, or why this client cannot go on with the host (a refusal: an
// error, an unreadable result or another protocol version). A refusal is
// final for the link; the caller says it and stops.
func decideInitialize(res json.RawMessage, rerr *model.RPCError) (initAnswer, string) {
	if rerr != nil {
		return initAnswer{}, "the host refused initialize: " + rerr.Message
	}
	var r struct {
		ProtocolVersion int    `json:"protocolVersion"`
		Durability      string `json:"durability"`
		Features        struct {
			SessionFocus  bool `json:"sessionFocus"`
			AgentCommands bool `json:"agentCommands"`
			Steer         bool `json:"steer"`
		} `json:"features"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return initAnswer{}, "malformed initialize result: " + err.Error()
	}
	if r.ProtocolVersion != protocolVersion {
		return initAnswer{}, "the host speaks protocol version " + strconv.Itoa(r.ProtocolVersion) +
			", this client speaks " + strconv.Itoa(protocolVersion)
	}
	return initAnswer{durability: r.Durability, sessionFocus: r.Features.SessionFocus, agentCommands: r.Features.AgentCommands, steer: r.Features.Steer}, ""
}
