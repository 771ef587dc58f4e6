package host

import (
	"encoding/json"
	"errors"
	"strconv"
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
// an item/started, item/updated or item/completed event.
func scanItemMeta(params []byte) (itemMeta, error) {
	var m itemMeta
	var item []byte
	err := eachMember(params, func(key string, val []byte) error {
		if key == "item" {
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
	err = eachMember(item, func(key string, val []byte) error {
		var err error
		switch key {
		case "itemId":
			m.ID, err = jsonString(val)
		case "kind":
			m.Kind, err = jsonString(val)
		case "commandId":
			m.CommandID, _ = jsonString(val) // only a userMessage's is read
		case "recordedAt":
			m.RecordedAt, _ = jsonString(val)
		case "position":
			if string(val) != "null" {
				m.Position, err = strconv.ParseInt(string(val), 10, 64)
			}
		}
		return err
	})
	if err == nil && m.ID == "" {
		err = errItemScan
	}
	return m, err
}

// jsonString returns the string a JSON string literal holds.
func jsonString(val []byte) (string, error) {
	if len(val) < 2 || val[0] != '"' {
		return "", errItemScan
	}
	inner := val[1 : len(val)-1]
	for _, c := range inner {
		if c == '\\' {
			var s string
			err := json.Unmarshal(val, &s)
			return s, err
		}
	}
	return string(inner), nil
}

// eachMember calls fn with every member of a JSON object (its raw value,
// whitespace trimmed), in order. The object was valid JSON when it was
// journaled; eachMember only checks what it needs to find the members.
func eachMember(obj []byte, fn func(key string, val []byte) error) error {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return errItemScan
	}
	i = skipSpace(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return nil
	}
	for i < len(obj) {
		end, err := skipValue(obj, i)
		if err != nil || obj[i] != '"' {
			return errItemScan
		}
		key, err := jsonString(obj[i:end])
		if err != nil {
			return err
		}
		i = skipSpace(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return errItemScan
		}
		i = skipSpace(obj, i+1)
		end, err = skipValue(obj, i)
		if err != nil {
			return err
		}
		if err := fn(key, obj[i:end]); err != nil {
			return err
		}
		i = skipSpace(obj, end)
		switch {
		case i < len(obj) && obj[i] == ',':
			i = skipSpace(obj, i+1)
		case i < len(obj) && obj[i] == '}':
			return nil
		default:
			return errItemScan
		}
	}
	return errItemScan
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the JSON value starting at b[i].
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errItemScan
	}
	switch b[i] {
	case '"':
		for j := i + 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				j++
			case '"':
				return j + 1, nil
			}
		}
		return 0, errItemScan
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, err := skipValue(b, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errItemScan
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	if j == i {
		return 0, errItemScan
	}
	return j, nil
}
