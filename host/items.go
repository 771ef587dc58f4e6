package host

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/lookout-sh/lookout/model"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
)

// marshalJSON encodes v without HTML escaping (item text is markdown full
// of '<' and '&').
func marshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// newID returns a fresh UUIDv7 string (time-ordered, unique).
func newID() string {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.NewString()
	}
	return id.String()
}

func nowRFC3339() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// cutUTF8 returns the longest prefix of s of at most n bytes that does not
// split a UTF-8 sequence.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// fieldCutter cuts the strings of an item's members to the host's
// bounds (fieldBounds.of), and the item's whole text to what is left of
// its textWireBound, collecting the dotted path of each string it cut.
type fieldCutter struct {
	kind     string
	bounds   fieldBounds
	wireRoom int // JSON bytes the whole text may still take
	cut      []string
}

// value cuts every string inside v, the member or element at path. It
// understands the shapes an agent passes (string, []string, []any,
// map[string]any) and leaves other values as they are.
func (c *fieldCutter) value(path string, v any) any {
	switch x := v.(type) {
	case string:
		x = strings.ToValidUTF8(x, "\uFFFD")
		kept := c.keep(path, x)
		if len(kept) < len(x) {
			c.cut = append(c.cut, path)
		}
		return kept
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = c.value(path+"."+strconv.Itoa(i), e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = c.value(path+"."+strconv.Itoa(i), e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = c.value(path+"."+k, e)
		}
		return out
	}
	return v
}

// keep is the prefix of s (valid UTF-8) that the string at path keeps.
func (c *fieldCutter) keep(path, s string) string {
	if !wholeText(c.kind, path) {
		return cutUTF8(s, c.bounds.sliced)
	}
	kept, n := model.JSONStringPrefix(s, c.bounds.text, c.wireRoom)
	c.wireRoom -= n + 1 // and the separator before the next string
	return kept
}

// itemObject is an item under construction: its members as raw JSON.
type itemObject map[string]json.RawMessage

// newItemObject starts revision 1 of an item at position pos.
func newItemObject(id, kind, turnID, status string, pos int64) itemObject {
	o := itemObject{}
	o.set("itemId", id)
	o.set("kind", kind)
	o.set("turnId", turnID)
	o.set("revision", 1)
	o.set("status", status)
	o.set("recordedAt", nowRFC3339())
	o.set("position", pos)
	return o
}

// nextItemObject is the next revision of an item, starting from its
// current folded object (which holds every delta streamed so far).
func nextItemObject(current []byte, status string) (itemObject, error) {
	o := itemObject{}
	if err := json.Unmarshal(current, &o); err != nil {
		return nil, err
	}
	var rev int64
	if err := json.Unmarshal(o["revision"], &rev); err != nil {
		return nil, fmt.Errorf("item revision: %w", err)
	}
	o.set("revision", rev+1)
	if status != "" {
		o.set("status", status)
	}
	o.set("recordedAt", nowRFC3339())
	return o, nil
}

func (o itemObject) set(k string, v any) {
	switch x := v.(type) {
	case string:
		o[k] = model.AppendJSONString(nil, x)
		return
	case int:
		o[k] = strconv.AppendInt(nil, int64(x), 10)
		return
	case int64:
		o[k] = strconv.AppendInt(nil, x, 10)
		return
	}
	b, err := marshalJSON(v)
	if err != nil {
		b = []byte("null")
	}
	o[k] = b
}

// truncated returns the item's truncated field paths.
func (o itemObject) truncated() []string {
	raw, ok := o["truncated"]
	if !ok {
		return nil
	}
	var t []string
	if json.Unmarshal(raw, &t) != nil {
		return nil // not a list of paths: replaced by the host's own
	}
	return t
}

// apply sets agent-supplied members, each string cut to its bound (and
// the item's whole text, which only its textMember holds, to
// textWireBound), merging cut paths into "truncated". Common members the
// host owns cannot be overridden.
func (o itemObject) apply(fields map[string]any, b fieldBounds) {
	c := &fieldCutter{kind: o.kind(), bounds: b, wireRoom: textWireBound - 2} // 2: an array's brackets
	for k, v := range fields {
		switch k {
		case "itemId", "kind", "turnId", "revision", "recordedAt", "position", "truncated":
			continue
		}
		o.set(k, c.value(k, v))
	}
	o.addTruncated(c.cut...)
}

// kind is the item's kind ("" when it has none).
func (o itemObject) kind() string {
	var k string
	_ = json.Unmarshal(o["kind"], &k)
	return k
}

func (o itemObject) addTruncated(paths ...string) {
	if len(paths) == 0 {
		return
	}
	t := o.truncated()
	for _, p := range paths {
		if !slices.Contains(t, p) {
			t = append(t, p)
		}
	}
	slices.Sort(t)
	o.set("truncated", t)
}

// raw encodes the item with sorted keys. Its values are valid JSON already
// (set encodes them; the rest come from a decoded item) and are copied as
// they are.
func (o itemObject) raw() json.RawMessage {
	keys := make([]string, 0, len(o))
	size := 2
	for k, v := range o {
		keys = append(keys, k)
		size += len(k) + len(v) + 4
	}
	slices.Sort(keys)
	b := make([]byte, 0, size)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = model.AppendJSONString(b, k)
		b = append(b, ':')
		b = append(b, o[k]...)
	}
	return append(b, '}')
}
