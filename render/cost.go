package render

import (
	"encoding/json"
	"fmt"
	"math"
)

// CostText writes a session's "costUsd" value (the agent's own cost
// total, in US dollars) as a person reads it: "$0.42", "<$0.01" for a
// cost below a cent, "$0.00" for none. "" when raw is absent or not a
// non-negative finite number.
func CostText(raw json.RawMessage) string {
	var usd float64
	if raw == nil || string(raw) == "null" || json.Unmarshal(raw, &usd) != nil || usd < 0 || math.IsInf(usd, 0) || math.IsNaN(usd) {
		return ""
	}
	if usd > 0 && usd < 0.005 {
		return "<$0.01"
	}
	return fmt.Sprintf("$%.2f", usd)
}
