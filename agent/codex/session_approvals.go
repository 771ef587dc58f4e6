package codex

import (
	"encoding/json"
	"slices"
)

// Approving a command "for the session" must hold for this Lookout
// session only. Codex offers acceptForSession for file changes, but for a
// command it offers only an exec-policy amendment, which it saves in
// CODEX_HOME's rules file: every later session, and the user's own Codex,
// would run the command unasked. So the bridge keeps the session's
// approved command prefixes itself (session state, so they outlive a
// restart), answers Codex "accept" for the one approved, and accepts a
// later request of the session whose command starts with one of them
// without asking again.

// stateApprovedPrefixes holds the session's approved command prefixes:
// a JSON array of token arrays.
const stateApprovedPrefixes = "codexApprovedPrefixes"

// approvedPrefixes reads the session's approved prefixes.
func approvedPrefixes(raw json.RawMessage) [][]string {
	var ps [][]string
	if len(raw) == 0 || json.Unmarshal(raw, &ps) != nil {
		return nil
	}
	return ps
}

// amendmentTokens reads Codex's proposed exec-policy amendment: the
// command's tokens (["touch", "x.txt"]). nil when it proposes none.
func amendmentTokens(raw json.RawMessage) []string {
	var ts []string
	if len(raw) == 0 || json.Unmarshal(raw, &ts) != nil || len(ts) == 0 {
		return nil
	}
	return ts
}

// preApproved reports whether a command (its amendment's tokens) starts
// with a prefix the session approved.
func preApproved(prefixes [][]string, command []string) bool {
	if len(command) == 0 {
		return false
	}
	for _, p := range prefixes {
		if len(p) > 0 && len(p) <= len(command) && slices.Equal(p, command[:len(p)]) {
			return true
		}
	}
	return false
}

// withPrefix adds a prefix to the session's list, once.
func withPrefix(prefixes [][]string, p []string) [][]string {
	if len(p) == 0 || slices.ContainsFunc(prefixes, func(q []string) bool { return slices.Equal(p, q) }) {
		return prefixes
	}
	return append(slices.Clone(prefixes), p)
}
