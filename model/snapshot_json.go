package model

import (
	"encoding/json"
	"strconv"
)

// AppendJSON appends the snapshot's JSON encoding: what json.Marshal
// writes, except that the items', approvals' and values' encodings are
// copied as they are rather than validated and compacted again. They are
// JSON already (the fold's own encodings, or frames it parsed), and a
// long message's item is most of the snapshot. Turns are written as the
// canonical encoding writes them (appendActiveTurn, appendQueuedTurn).
func (s *Snapshot) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"cursor":`...)
	dst = appendString(dst, s.Cursor)
	dst = append(dst, `,"durableCursor":`...)
	dst = appendString(dst, s.DurableCursor)
	dst = append(dst, `,"items":`...)
	dst = appendArrayOrNull(dst, s.Items, appendRaw)
	dst = append(dst, `,"hasOlder":`...)
	dst = strconv.AppendBool(dst, s.HasOlder)
	dst = append(dst, `,"activeTurn":`...)
	if s.ActiveTurn == nil {
		dst = append(dst, "null"...)
	} else {
		dst = appendActiveTurn(dst, s.ActiveTurn)
	}
	dst = append(dst, `,"queuedTurns":`...)
	dst = appendArrayOrNull(dst, s.QueuedTurns, appendQueuedTurn)
	dst = append(dst, `,"pendingApprovals":`...)
	dst = appendArrayOrNull(dst, s.PendingApprovals, appendRaw)
	dst = append(dst, `,"state":`...)
	if s.State == nil {
		dst = append(dst, "null"...)
	} else {
		dst = appendObject(dst, s.State, appendRaw)
	}
	return append(dst, '}')
}

// appendRaw appends one encoding, null when it is empty.
func appendRaw(dst []byte, raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return append(dst, "null"...)
	}
	return append(dst, raw...)
}
