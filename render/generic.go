package render

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// metaFields are the common item members, shown together on one faint
// line after the kind's own fields, by a short name.
var metaFields = map[string]string{
	"itemId": "id", "turnId": "turn", "revision": "rev", "position": "pos", "recordedAt": "at",
}

// genericValueLines bounds each field's wrapped lines when collapsed.
const genericValueLines = 3

// generic renders an item of a kind this client does not know, so that
// nothing is dropped: a header with the kind and status, then every other
// field as "name: value" (strings as text, anything else as JSON), each
// value cut to a few lines unless expanded, and the common members (id,
// turn, revision, position, time) together on a last faint line.
func (r *Renderer) generic(it *model.Item, cw int, o ItemOptions) []string {
	t := r.theme
	kind := it.Kind
	if kind == "" {
		kind = "item"
	}
	status := it.Status
	if status == "" {
		status = "no status"
	}
	mark := "◇"
	if live(it) {
		mark = spin(o, mark)
	}
	header := t.Accent.Render(mark+" "+termtext.Line(kind)) + t.Muted.Render(" · "+termtext.Line(status))
	lines := []string{clamp(header, cw)}
	indent, w := "  ", cw-2
	if cw < 12 {
		indent, w = "", cw
	}
	var meta []string
	for _, name := range it.FieldNames() {
		if name == "kind" || name == "status" {
			continue
		}
		if short, ok := metaFields[name]; ok {
			meta = append(meta, short+" "+fieldText(it.Field(name)))
			continue
		}
		val := fieldText(it.Field(name))
		if limit := genericValueLines*w*4 + 64; !o.Expanded && len(val) > limit {
			// Wrap no more than can show.
			cut := limit
			for cut > 0 && !utf8.RuneStart(val[cut]) {
				cut--
			}
			val = val[:cut] + "…"
		}
		label := termtext.Line(name) + ": "
		wrapped := wrapPlain(termtext.Text(label+val), w)
		if !o.Expanded && len(wrapped) > genericValueLines {
			wrapped = wrapped[:genericValueLines]
			wrapped[genericValueLines-1] = truncateEnd(wrapped[genericValueLines-1]+" …", w)
		}
		for i, l := range wrapped {
			if i == 0 && strings.HasPrefix(l, label) {
				lines = append(lines, indent+t.Muted.Render(label)+t.Text.Render(l[len(label):]))
				continue
			}
			lines = append(lines, indent+t.Text.Render(l))
		}
	}
	if len(meta) > 0 {
		lines = append(lines, styleLines(t.Faint, prefixLines(indent, indent, wrapPlain(termtext.Text(strings.Join(meta, " · ")), w)))...)
	}
	return append(lines, r.annotationLines(it, "", cw)...)
}

// fieldText shows a JSON value: a string as its text, anything else as
// compact JSON.
func fieldText(raw json.RawMessage) string {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	return string(raw)
}
