// Package bridge holds what every agent bridge's Agent shares above the
// child process (agent/child): the per-session registry of live children
// (Registry), the slot of a session's running turn (TurnSlot), the turn's
// outcome reported once (Outcome), the turn's skeleton (RunTurn, with the
// bridge's TurnDriver) and what surrounds it (DefaultTitle, StartFailure,
// NotShown), and small helpers for session state (JSONString, Title,
// Logger).
//
// A bridge keeps its protocol (messages, turn folding, approvals, items)
// in its own package; it uses this one for the bookkeeping around it
// (docs/agents.md, "What every bridge shares").
package bridge
