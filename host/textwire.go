package host

import "github.com/lookout-sh/lookout/model"

// textWireBound is the most JSON an item's whole text (its textMember,
// encoded) may take, so that a full object of the item, with its other
// members and the envelope, fits a MaxFrameBytes frame. Ordinary text
// reaches TextBound long before it (a quote or a newline is two bytes on
// the wire); text made mostly of control characters, six bytes each
// (\u001b), is cut by it first.
const textWireBound = 3 << 20

// newStringWire is what a delta that starts a string costs on the wire
// beyond its text: two quotes and a separator. It is counted for any
// delta into an empty string, so at worst three bytes too many.
const newStringWire = 3

// textWireUsed is the JSON the whole text of it takes: measured once, then
// kept up to date by keepDeltaText, until a full object of the item
// (which may restate its text) forgets it.
func (r *turnRun) textWireUsed(it *model.Item) int {
	if n, ok := r.textWire[it.ID]; ok {
		return n
	}
	if m := textMember(it.Kind); m != "" && it.Has(m) {
		return len(it.Field(m))
	}
	return 0
}

// keepDeltaText is the part of a delta's text (valid UTF-8) that the
// string at field of it keeps: the field's bound, and for whole text the
// item's textWireBound, decide.
func (r *turnRun) keepDeltaText(it *model.Item, field, text string, b fieldBounds) string {
	have := len(it.String(field))
	room := b.of(it.Kind, field) - have
	if !wholeText(it.Kind, field) {
		return cutUTF8(text, room)
	}
	used := r.textWireUsed(it)
	if have == 0 {
		used += newStringWire
	}
	kept, n := model.JSONStringPrefix(text, room, textWireBound-used+2)
	if r.textWire == nil {
		r.textWire = map[string]int{}
	}
	r.textWire[it.ID] = used + n - 2
	return kept
}
