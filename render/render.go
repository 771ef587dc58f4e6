// Package render turns transcript items into styled terminal lines.
//
// One renderer per item kind (userMessage, agentMessage, reasoning,
// toolCall, contextCompaction, error, fileChange, question, plan) and a generic one for every other
// kind; each lives in its own file. A Renderer memoises what it renders so
// that a finished item is laid out once per width and a streaming agent
// message re-renders only the markdown after its last stable block.
//
// Every line the package returns is self-contained (it resets the styles it
// sets) and at most the requested width in terminal cells, as measured by
// github.com/charmbracelet/x/ansi.StringWidth.
package render

import (
	"slices"
	"strings"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/themes"
)

// ItemOptions affect an item's rendering; they are part of the cache key.
type ItemOptions struct {
	// Expanded shows an item in full: every reasoning summary part instead
	// of a one-line header, a tool call's whole input and output instead of
	// their tails, and every value of an unknown kind uncut.
	Expanded bool
	// Selected draws the selection marker in the row's gutter.
	Selected bool
	// Spinner is the current spinner frame, drawn on items that are still
	// running or streaming ("" draws a static mark instead).
	Spinner string
}

// DefaultMaxItems is how many items' renders a Renderer keeps before it
// evicts the least recently used quarter.
const DefaultMaxItems = 4096

// entriesPerItem bounds the renders kept per item (widths, option sets).
const entriesPerItem = 4

// Renderer renders items to styled lines. It caches per item by (ID,
// Revision, Version, content length, width, options) and drops everything
// when the theme changes. It creates one glamour TermRenderer per markdown
// wrap width and reuses it for every message.
//
// A Renderer is not safe for concurrent use: the TUI owns one and calls it
// from its Update/View goroutine. Returned slices are shared with the
// cache: callers must not modify them.
type Renderer struct {
	theme    themes.Theme
	items    map[string]*itemCache
	md       map[int]*mdRenderer
	flow     *mdRenderer   // no wrap, no padding: see fit.go
	margin   *string       // a code block line's margin, once known: see code.go
	inline   *inlineStyles // how glamour styles a plain paragraph's spans, once known: see prose.go
	clock    uint64
	maxItems int
	stats    Stats
	pendRows map[string]pendingRender // pending rows by commandId (pending.go)
}

// Stats counts the work a Renderer did; tests and benchmarks read it to
// prove what the caches saved.
type Stats struct {
	ItemRenders     int // Item calls that laid out a body (cache misses; a selection-only change re-frames without counting)
	MarkdownRenders int // glamour Render calls
	MarkdownBytes   int // bytes of markdown handed to glamour
}

// itemCache holds one item's renders and, for agent messages, the
// streaming markdown state.
type itemCache struct {
	used    uint64
	rev     int64
	ver     uint64
	size    int // ContentLen: Version restarts when an item is replaced whole
	entries []cacheEntry
	md      *mdStream
}

type cacheEntry struct {
	key   itemKey
	lines []string
	glen  int // bytes of gutter before each line's body
}

// itemKey is everything that changes an item's lines besides the theme,
// which clears the whole cache.
type itemKey struct {
	width  int
	opts   ItemOptions
	status string
	final  bool
	tu     bool
}

// New returns a Renderer drawing with theme t.
func New(t themes.Theme) *Renderer {
	return &Renderer{
		theme:    t,
		items:    make(map[string]*itemCache),
		md:       make(map[int]*mdRenderer),
		maxItems: DefaultMaxItems,
	}
}

// SetTheme switches the theme and drops every cache (item renders and the
// glamour renderers, whose styles belong to the old theme).
func (r *Renderer) SetTheme(t themes.Theme) {
	r.theme = t
	clear(r.items)
	clear(r.md)
	clear(r.pendRows)
	r.flow, r.margin, r.inline = nil, nil, nil
}

// Theme returns the theme in use.
func (r *Renderer) Theme() themes.Theme { return r.theme }

// Stats returns the work counters since New.
func (r *Renderer) Stats() Stats { return r.stats }

// SetMaxItems bounds how many items' renders are kept (n < 1 restores
// DefaultMaxItems). Exceeding it evicts the least recently used quarter.
func (r *Renderer) SetMaxItems(n int) {
	if n < 1 {
		n = DefaultMaxItems
	}
	r.maxItems = n
	r.evict()
}

// Forget drops one item's cached renders (for example when it left the
// transcript).
func (r *Renderer) Forget(itemID string) { delete(r.items, itemID) }

// Item renders it at width cells with options o. A nil item renders as no
// lines; a width below 1 is treated as 1. Every line's display width is at
// most width. The result is cached: the same item version, width and
// options return the same slice without rendering again. Options that do
// not change an item's look are ignored (Spinner on an item that is no
// longer live, Expanded on kinds without an expanded form), and changing
// only Selected re-frames the cached body without rendering it again.
//
// An agent message that streams is laid out in place: the slice returned
// for it is valid until the next Item call for the same item, which may
// reuse its backing array (its stable lines stay as they are).
func (r *Renderer) Item(it *model.Item, width int, o ItemOptions) []string {
	if it == nil {
		return nil
	}
	if width < 1 {
		width = 1
	}
	c := r.cacheFor(it)
	o = normalize(it, o)
	key := itemKey{width: width, opts: o, status: it.Status, final: it.Final, tu: it.TerminalUnknown}
	for _, e := range c.entries {
		if e.key == key {
			return e.lines
		}
	}
	// Selection only changes the gutter: reuse a body laid out without it.
	// The body is each line after its gutter: substrings, no copies, and
	// already fitted to the width (both gutters are as wide).
	var body []string
	for _, e := range c.entries {
		k := e.key
		k.opts.Selected = key.opts.Selected
		if k == key {
			body = make([]string, len(e.lines))
			for i, l := range e.lines {
				body[i] = l[e.glen:]
			}
			break
		}
	}
	var lines []string
	glen := 0
	if body == nil {
		r.stats.ItemRenders++
		if it.Kind == model.KindAgentMessage {
			lines, glen, _ = r.agentFramed(it, c, width, o)
		}
		if lines == nil {
			body = r.body(it, c, width, o)
		}
	}
	if lines == nil {
		lines, glen = r.frame(body, width, o)
	}
	if len(c.entries) >= entriesPerItem {
		c.entries = slices.Delete(c.entries, 0, 1)
	}
	c.entries = append(c.entries, cacheEntry{key: key, lines: lines, glen: glen})
	return lines
}

// cacheFor returns the item's cache, made fresh when the item changed since it
// was filled, and marks it used.
func (r *Renderer) cacheFor(it *model.Item) *itemCache {
	r.clock++
	c := r.items[it.ID]
	if c == nil {
		c = &itemCache{}
		r.items[it.ID] = c
		if len(r.items) > r.maxItems {
			c.used = r.clock
			r.evict()
		}
	}
	c.used = r.clock
	if size := it.ContentLen(); c.rev != it.Revision || c.ver != it.Version || c.size != size {
		c.rev, c.ver, c.size = it.Revision, it.Version, size
		c.entries = c.entries[:0]
	}
	return c
}

// ItemTail returns at least the last n lines of Item(it, width, o), or all
// of them; whole reports which. It differs from Item only for an agent
// message seen while it streamed: the stable markdown above its last n
// lines is left unrendered until the whole message is asked for, so a
// window that follows a long answer pays for what it shows. A partial
// result is not cached; the same rules as for Item's slices apply.
func (r *Renderer) ItemTail(it *model.Item, width int, o ItemOptions, n int) (lines []string, whole bool) {
	if it == nil || n <= 0 || it.Kind != model.KindAgentMessage {
		return r.Item(it, width, o), true
	}
	width = max(width, 1)
	c := r.cacheFor(it)
	o = normalize(it, o)
	key := itemKey{width: width, opts: o, status: it.Status, final: it.Final, tu: it.TerminalUnknown}
	for _, e := range c.entries {
		if e.key == key {
			return e.lines, true
		}
	}
	if !live(it) && c.md == nil {
		return r.Item(it, width, o), true
	}
	if lines, whole, ok := r.agentTail(it, c, width, o, n); ok && !whole {
		return lines, false
	}
	return r.Item(it, width, o), true
}

// normalize drops the options that cannot change how it looks, so that
// they do not split the cache: a spinner frame on an item that is no
// longer live, and Expanded on kinds that have no expanded form.
func normalize(it *model.Item, o ItemOptions) ItemOptions {
	if !live(it) {
		o.Spinner = ""
	}
	switch it.Kind {
	case model.KindUserMessage, model.KindAgentMessage, model.KindContextCompaction, model.KindError, model.KindQuestion, model.KindPlan:
		o.Expanded = false
	}
	return o
}

// body dispatches to the renderer of the item's kind; content lines are at
// most contentWidth(width) cells.
func (r *Renderer) body(it *model.Item, c *itemCache, width int, o ItemOptions) []string {
	cw := contentWidth(width)
	var lines []string
	switch it.Kind {
	case model.KindUserMessage:
		lines = r.userMessage(it, cw)
	case model.KindAgentMessage:
		lines = r.agentMessage(it, c, cw, o)
	case model.KindReasoning:
		lines = r.reasoning(it, cw, o)
	case model.KindToolCall:
		lines = r.toolCall(it, cw, o)
	case model.KindContextCompaction:
		lines = r.compaction(it, cw, o)
	case model.KindError:
		lines = r.errorItem(it, cw, o)
	case model.KindFileChange:
		lines = r.fileChange(it, cw, o)
	case model.KindQuestion:
		lines = r.question(it, cw, o)
	case model.KindPlan:
		lines = r.plan(it, cw, o)
	default:
		lines = r.generic(it, cw, o)
	}
	if it.Kind != model.KindAgentMessage {
		// Only agent messages keep streaming state.
		c.md = nil
	}
	return lines
}

// evict drops the least recently used quarter of the item caches when
// there are more than maxItems.
func (r *Renderer) evict() {
	if len(r.items) <= r.maxItems {
		return
	}
	stamps := make([]uint64, 0, len(r.items))
	for _, c := range r.items {
		stamps = append(stamps, c.used)
	}
	slices.Sort(stamps)
	drop := len(r.items) - r.maxItems*3/4
	if drop < 1 {
		drop = 1
	}
	cut := stamps[drop-1]
	for id, c := range r.items {
		if c.used <= cut {
			delete(r.items, id)
		}
	}
}

// gutterWidth is the selection gutter left of every row's content; rows
// narrower than minGutterWidth get none.
const (
	gutterWidth    = 2
	minGutterWidth = 8
)

func contentWidth(width int) int {
	if width < minGutterWidth {
		return width
	}
	return width - gutterWidth
}

// appendFramed appends line l behind gutter, cut into pieces of at most
// cw cells when it is wider (or holds a line break).
func appendFramed(dst []string, l, gutter string, cw int) []string {
	if strings.IndexByte(l, '\n') >= 0 {
		// A renderer let a line break through; keep the contract.
		for _, sub := range strings.Split(l, "\n") {
			for _, piece := range fitStyled(sub, cw) {
				dst = append(dst, gutter+clamp(piece, cw))
			}
		}
		return dst
	}
	if CellWidth(l) <= cw {
		return append(dst, gutter+l)
	}
	for _, piece := range fitStyled(l, cw) {
		dst = append(dst, gutter+clamp(piece, cw))
	}
	return dst
}

// frame adds the selection gutter and enforces the width contract. It
// returns the lines and the byte length of the gutter before each.
func (r *Renderer) frame(lines []string, width int, o ItemOptions) ([]string, int) {
	cw := contentWidth(width)
	out := make([]string, 0, len(lines))
	gutter := ""
	if cw < width {
		gutter = "  "
		if o.Selected {
			gutter = r.theme.Selected.Render("▌") + " "
		}
	}
	for _, l := range lines {
		out = appendFramed(out, l, gutter, cw)
	}
	if len(out) == 0 {
		out = append(out, gutter)
	}
	return out, len(gutter)
}
