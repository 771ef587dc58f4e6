package model

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Limits bound what a State holds, so that a host that sends more than the
// protocol allows (its own bound is 64 KiB per string field) cannot make a
// client hold gigabytes (docs/protocol.md, 3. Items, "Client bounds"). The zero value bounds nothing: a host's own fold
// keeps everything. A client sets them with SetLimits.
type Limits struct {
	// FieldBytes: no string field of an item grows past this many bytes. A
	// delta that would pass it is cut on a UTF-8 boundary and the rest of
	// the field's stream is dropped; a longer string in a full object is
	// cut the same way. 0: no bound.
	FieldBytes int
	// ItemBytes: no delta grows an item's content (every member, as held)
	// past this many bytes, whatever field it targets (a host could
	// otherwise spread its stream over new array elements). 0: no bound.
	ItemBytes int
	// Items and Bytes bound the items held and the bytes of their content.
	// Past either, the oldest items are dropped from memory (down to 15/16
	// of the bound, so the cost is amortised) and HasOlder becomes true:
	// they can be paged back in (view/page before) like history not yet
	// loaded. History pages the user asks for (ApplyOlder) may pass the
	// bound; the next item the live fold adds trims back. 0: no bound.
	Items int
	Bytes int64
}

// ItemCut says how this client cut an item at its own bound (Limits). It
// is a display state like TerminalUnknown: never sent on the wire and not
// part of the canonical encoding. A later full object of the item replaces
// the item, and the cut with it.
type ItemCut struct {
	// Fields are the field paths that stopped growing at FieldBound.
	Fields     []string
	FieldBound int
	// ItemBound is set when the item's whole content reached the item
	// bound: no field of it grows any more.
	ItemBound int
}

// mergeCuts is a cut holding both a's and b's (either may be nil).
func mergeCuts(a, b *ItemCut) *ItemCut {
	if a == nil {
		return b
	}
	c := &ItemCut{FieldBound: max(a.FieldBound, b.FieldBound), ItemBound: max(a.ItemBound, b.ItemBound)}
	c.Fields = slices.Clone(a.Fields)
	for _, f := range b.Fields {
		if !slices.Contains(c.Fields, f) {
			c.Fields = append(c.Fields, f)
		}
	}
	slices.Sort(c.Fields)
	return c
}

// drops reports whether a delta for field falls past a bound already
// reached: the item's, or the field's own.
func (c *ItemCut) drops(field string) bool {
	if field == "" {
		field = "text"
	}
	return c.ItemBound != 0 || slices.Contains(c.Fields, field)
}

// Bytes of a newly created string or container inside an item, beyond its
// content: what a delta that creates one is charged toward ItemBytes, so
// a stream of tiny deltas each creating a new array element is bounded too.
const newValueCost = 32

// cutKind says why a delta was cut.
type cutKind uint8

const (
	notCut cutKind = iota
	cutField
	cutItem
)

// deltaBudget is what one delta may add to an item: the field bound, the
// room left under the item bound, and (out) what was added and why it was
// cut.
type deltaBudget struct {
	fieldMax int
	itemRoom int
	added    int
	kept     int // bytes of the delta's text kept (all of it unless cut)
	cut      cutKind
}

// clip cuts d for a string field holding have bytes.
func (b *deltaBudget) clip(have int, d string) string {
	room, why := b.fieldMax-have, cutField
	if b.itemRoom < room {
		room, why = b.itemRoom, cutItem
	}
	if len(d) <= room {
		return d
	}
	b.cut = why
	return cutUTF8(d, room)
}

// cutUTF8 returns the longest prefix of s of at most n bytes that does not
// end inside a UTF-8 sequence.
func cutUTF8(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func bound(n int) int {
	if n <= 0 {
		return math.MaxInt
	}
	return n
}

// SetLimits sets the bounds of what the State holds and applies them to
// what it holds now (items held whole are not cut again: the field bounds
// apply to what arrives from now on).
func (s *State) SetLimits(l Limits) {
	s.init()
	s.limits = l
	s.fieldMax, s.itemMax = bound(l.FieldBytes), bound(l.ItemBytes)
	s.trim()
}

// Limits returns the bounds set by SetLimits.
func (s *State) Limits() Limits { return s.limits }

// Dropped is how many items the State dropped from memory to stay within
// Limits (they are still on the host: HasOlder is true while any is
// missing).
func (s *State) Dropped() int { return s.dropped }

// HeldBytes is the content held, in bytes, as counted toward
// Limits.Bytes (the members' encoded or streamed lengths).
func (s *State) HeldBytes() int64 { return s.held }

// noteCut records a delta the bounds cut: the item's display mark, and a
// typed diagnostic the first time each field (or the item) is cut.
func (s *State) noteCut(it *Item, why cutKind, ev *Event) {
	c := &ItemCut{}
	if it.Cut != nil {
		*c = *it.Cut
	}
	field := ev.Field
	if field == "" {
		field = "text"
	}
	switch why {
	case cutField:
		if slices.Contains(c.Fields, field) {
			return
		}
		c.Fields = append(slices.Clone(c.Fields), field)
		c.FieldBound = s.limits.FieldBytes
	case cutItem:
		if c.ItemBound != 0 {
			return
		}
		c.ItemBound = s.limits.ItemBytes
	}
	it.Cut = c
	detail := "the field passed this client's bound of " + strconv.Itoa(s.limits.FieldBytes) + " bytes (the protocol allows 64 KiB): the rest of its stream is dropped"
	if why == cutItem {
		detail = "the item passed this client's bound of " + strconv.Itoa(s.limits.ItemBytes) + " bytes: the rest of its stream is dropped"
	}
	s.diagnose(FoldError{Reason: ClientBound, Method: ev.Method, ItemID: it.ID, Field: field, Seq: ev.Seq, Detail: detail})
}

// boundFullObject cuts the string members of a full object that pass the
// field bound (the item is freshly cloned from the wire, so owned) and
// reports the cut. The common case, an item smaller than the bound, costs
// one sum of member lengths.
func (s *State) boundFullObject(it *Item, seq int64) {
	if s.fieldMax == math.MaxInt || it.held <= s.fieldMax {
		return
	}
	var cut []string
	for k, v := range it.fields {
		if commonFields[k] {
			continue
		}
		if nv, ok := cutTree(v, s.fieldMax, k, &cut); ok {
			it.fields[k] = nv
		}
	}
	if len(cut) == 0 {
		return
	}
	slices.Sort(cut)
	it.Cut = &ItemCut{Fields: cut, FieldBound: s.limits.FieldBytes}
	it.held = it.ContentLen()
	s.diagnose(FoldError{Reason: ClientBound, ItemID: it.ID, Field: cut[0], Seq: seq,
		Detail: "a full object holds strings longer than this client's bound of " + strconv.Itoa(s.limits.FieldBytes) + " bytes (the protocol allows 64 KiB): cut"})
}

// cutTree cuts every string inside v longer than max; ok reports whether
// it returned a new value. Only values whose encoding is longer than max
// are opened.
func cutTree(v any, max int, path string, cut *[]string) (any, bool) {
	switch x := v.(type) {
	case *Str:
		if x.Len() <= max {
			return v, false
		}
		*cut = append(*cut, path)
		return NewStr(cutUTF8(x.String(), max)), true
	case json.RawMessage:
		if len(x) <= max {
			return v, false
		}
		if x[0] == '"' {
			str, ok := valueString(x)
			if !ok || len(str) <= max {
				return v, false
			}
			*cut = append(*cut, path)
			return NewStr(cutUTF8(str, max)), true
		}
		m := materialize(x)
		if _, isRaw := m.(json.RawMessage); isRaw {
			return v, false
		}
		nv, _ := cutTree(m, max, path, cut)
		return nv, true
	case map[string]any:
		changed := false
		for k, e := range x {
			if ne, ok := cutTree(e, max, path+"."+k, cut); ok {
				x[k], changed = ne, true
			}
		}
		return x, changed
	case []any:
		changed := false
		for i, e := range x {
			if ne, ok := cutTree(e, max, path+"."+strconv.Itoa(i), cut); ok {
				x[i], changed = ne, true
			}
		}
		return x, changed
	}
	return v, false
}

// overLimits reports whether the State holds more than Limits allow.
func (s *State) overLimits() bool {
	return (s.limits.Items > 0 && len(s.order) > s.limits.Items) ||
		(s.limits.Bytes > 0 && s.held > s.limits.Bytes && len(s.order) > 1)
}

// trim drops the oldest items while the State holds more than Limits
// allow, down to 15/16 of each bound (always keeping the newest item).
// The dropped range becomes history the host still has: HasOlder.
func (s *State) trim() {
	if !s.overLimits() {
		return
	}
	maxItems, maxBytes := len(s.order), s.held
	if s.limits.Items > 0 {
		maxItems = s.limits.Items - s.limits.Items/16
	}
	if s.limits.Bytes > 0 {
		maxBytes = s.limits.Bytes - s.limits.Bytes/16
	}
	k, held := 0, s.held
	for k < len(s.order)-1 && (len(s.order)-k > maxItems || held > maxBytes) {
		held -= int64(s.order[k].held)
		delete(s.items, s.order[k].ID)
		k++
	}
	// A fresh slice, so the dropped items are garbage once no View holds
	// them (a View holds the old slice, which is never rewritten).
	s.order = slices.Clone(s.order[k:])
	s.orderShared = false
	s.held = held
	s.dropped += k
	s.HasOlder = true
}
