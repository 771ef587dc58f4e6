package host

import (
	"errors"
	"strconv"

	"github.com/lookout-sh/lookout/model"
)

// itemMeta is what the index needs of a journaled full-object event: read
// by scanItemMeta without decoding the item, so that loading a session
// costs little per item whose body it never holds.
type itemMeta struct {
	ID         string
	Kind       string
	CommandID  string // a userMessage's commandId
	RecordedAt string
	Position   int64 // 0 when the item carries none
}

var errItemScan = errors.New("malformed item event")

// scanItemMeta reads the item's identity and position from the params of
// an item/started, item/updated or item/completed event, with the model's
// scanner (the params were valid JSON when they were journaled).
func scanItemMeta(params []byte) (itemMeta, error) {
	var m itemMeta
	var item []byte
	err := model.EachMember(params, func(key, val []byte) error {
		if model.KeyIs(key, "item") {
			item = val
		}
		return nil
	})
	if err != nil {
		return m, err
	}
	if len(item) == 0 {
		return m, errItemScan
	}
	err = model.EachMember(item, func(key, val []byte) error {
		ok := true
		var err error
		switch {
		case model.KeyIs(key, "itemId"):
			m.ID, ok = model.Unquote(val)
		case model.KeyIs(key, "kind"):
			m.Kind, ok = model.Unquote(val)
		case model.KeyIs(key, "commandId"):
			m.CommandID, _ = model.Unquote(val) // only a userMessage's is read
		case model.KeyIs(key, "recordedAt"):
			m.RecordedAt, _ = model.Unquote(val)
		case model.KeyIs(key, "position"):
			if string(val) != "null" {
				m.Position, err = strconv.ParseInt(string(val), 10, 64)
			}
		}
		if !ok {
			return errItemScan
		}
		return err
	})
	if err == nil && m.ID == "" {
		err = errItemScan
	}
	return m, err
}
