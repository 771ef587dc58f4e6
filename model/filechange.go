package model

import "encoding/json"

// FileChange is one file of a fileChange item: what happens to path (kind
// "add", "delete" or "update"; movePath for a move) and its unified diff.
type FileChange struct {
	Path     string `json:"path"`
	Kind     string `json:"kind"`
	MovePath string `json:"movePath,omitempty"`
	Diff     string `json:"diff"`
}

// FileChanges reads a fileChange item's changes. Entries that are not
// objects, and members of the wrong type, read as empty: an agent's odd
// item still shows what it can.
func (it *Item) FileChanges() []FileChange {
	raw := it.Field("changes")
	if raw == nil {
		return nil
	}
	var entries []json.RawMessage
	if json.Unmarshal(raw, &entries) != nil {
		return nil
	}
	out := make([]FileChange, 0, len(entries))
	for _, e := range entries {
		var m map[string]json.RawMessage
		if json.Unmarshal(e, &m) != nil {
			continue
		}
		str := func(k string) string {
			var s string
			_ = json.Unmarshal(m[k], &s) // a member that is not a string reads as ""
			return s
		}
		out = append(out, FileChange{Path: str("path"), Kind: str("kind"), MovePath: str("movePath"), Diff: str("diff")})
	}
	return out
}
