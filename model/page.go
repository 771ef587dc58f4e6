package model

import (
	"bytes"
	"errors"
	"fmt"
)

// DecodePage reads a view/page result (docs/protocol.md, 6. Paged reads),
// checking once that it is JSON. Each element's params are copied out of
// raw (a held item must not keep its whole page alive) and marked
// checked, so that PageElement.Event decodes them without checking again.
// Members other than the page's are ignored.
func DecodePage(raw []byte) (*Page, error) { return decodePage(raw, false) }

// Page reads the frame's result as a view/page result, as DecodePage
// does, without checking it is JSON again when ParseFrame read the frame.
func (f *Frame) Page() (*Page, error) { return decodePage(f.Result, f.valid) }

func decodePage(raw []byte, valid bool) (*Page, error) {
	if !valid && !validJSON(raw) {
		return nil, errors.New("not valid JSON")
	}
	var p Page
	var bad error
	err := eachMember(raw, func(k, v []byte) error {
		var ok bool
		switch {
		case keyIs(k, "epoch"):
			p.Epoch, ok = nullableString(v)
		case keyIs(k, "startCursor"):
			p.StartCursor, ok = nullableString(v)
		case keyIs(k, "endCursor"):
			p.EndCursor, ok = nullableString(v)
		case keyIs(k, "hasNewer"):
			p.HasNewer, ok = jsonBool(v)
		case keyIs(k, "hasOlder"):
			p.HasOlder, ok = jsonBool(v)
		case keyIs(k, "events"):
			p.Events, bad = pageElements(v)
			return bad
		default:
			return nil
		}
		if !ok {
			bad = fmt.Errorf("member %s has the wrong type", k)
		}
		return bad
	})
	if bad != nil {
		return nil, bad
	}
	if err != nil {
		return nil, errors.New("not a JSON object")
	}
	return &p, nil
}

// pageElements reads the events array of a page (valid JSON).
func pageElements(v []byte) ([]PageElement, error) {
	v = bytes.TrimSpace(v)
	if string(v) == "null" {
		return nil, nil
	}
	if len(v) == 0 || v[0] != '[' {
		return nil, errors.New("events is not an array")
	}
	out := []PageElement{}
	for i := skipWS(v, 1); i < len(v) && v[i] != ']'; {
		end, err := skipValue(v, i)
		if err != nil {
			return nil, err
		}
		el, err := pageElement(v[i:end])
		if err != nil {
			return nil, fmt.Errorf("events[%d]: %w", len(out), err)
		}
		out = append(out, el)
		i = skipWS(v, end)
		if i < len(v) && v[i] == ',' {
			i = skipWS(v, i+1)
		}
	}
	return out, nil
}

// pageElement reads one {method, params} element (valid JSON).
func pageElement(v []byte) (PageElement, error) {
	el := PageElement{valid: true}
	var bad error
	err := eachMember(v, func(k, val []byte) error {
		switch {
		case keyIs(k, "method"):
			m, ok := nullableString(val)
			if !ok {
				bad = errors.New("method is not a string")
			}
			el.Method = m
		case keyIs(k, "params"):
			el.Params = bytes.Clone(val)
		}
		return bad
	})
	if bad != nil {
		return PageElement{}, bad
	}
	if err != nil {
		return PageElement{}, errors.New("not a JSON object")
	}
	return el, nil
}

// nullableString reads a JSON string, or null as "".
func nullableString(v []byte) (string, bool) {
	if string(v) == "null" {
		return "", true
	}
	return unquote(v)
}

// jsonBool reads true, false, or null as false.
func jsonBool(v []byte) (b, ok bool) {
	switch string(v) {
	case "true":
		return true, true
	case "false", "null":
		return false, true
	}
	return false, false
}
