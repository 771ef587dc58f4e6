package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/lookout-sh/lookout/keymap"
	"github.com/lookout-sh/lookout/themes"
)

// maxComposerLines is the tallest the composer grows before it scrolls.
const maxComposerLines = 8

// composer is the prompt box: a bubbles textarea plus prompt history. It
// owns no I/O; sending is the model's job.
type composer struct {
	ta      textarea.Model
	history []string // prompts sent from here (or cleared), oldest first
	session []string // the session's prompts (its userMessages), oldest first; set by the model
	browse  []string // the list being browsed: session and local prompts (mergePrompts)
	histIdx int      // index into browse being browsed, or -1
	width   int

	// shown is the last view (rule and textarea) for shownLabel; every
	// method that changes the textarea clears shownOK, so a frame that
	// only changed the transcript does not render the textarea again.
	shown      string
	shownLabel string
	shownOK    bool
}

func newComposer(km keymap.KeyMap, t themes.Theme) composer {
	ta := textarea.New()
	ta.Prompt = "› "
	ta.ShowLineNumbers = false
	ta.Placeholder = "Write a prompt · enter sends · ctrl+j newline · ? keys"
	ta.CharLimit = 0
	ta.MaxHeight = maxComposerLines // visible lines; longer drafts scroll
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxContentHeight = 9000 // input is never blocked by MaxHeight
	ta.KeyMap.InsertNewline = key.NewBinding(key.WithKeys(km.Composer.Newline.Keys()...))
	// Paging belongs to the transcript.
	ta.KeyMap.PageUp = key.NewBinding(key.WithDisabled())
	ta.KeyMap.PageDown = key.NewBinding(key.WithDisabled())
	c := composer{ta: ta, histIdx: -1}
	c.setTheme(t)
	c.ta.Focus()
	return c
}

func (c *composer) setTheme(t themes.Theme) {
	s := textarea.DefaultStyles(t.Dark)
	for _, st := range []*textarea.StyleState{&s.Focused, &s.Blurred} {
		st.Text = t.Text
		st.Placeholder = t.Faint
		st.Prompt = t.Accent
		st.CursorLine = t.Text
	}
	s.Blurred.Prompt = t.Faint
	s.Cursor.Blink = false // a steady cursor: no blink repaints
	c.ta.SetStyles(s)
	c.shownOK = false
}

func (c *composer) setWidth(w int) {
	if w != c.width {
		c.width = w
		c.ta.SetWidth(max(w, 4))
		c.shownOK = false
	}
}

// height is the number of lines the composer takes, its rule included.
func (c *composer) height() int {
	return 1 + min(max(c.ta.Height(), 1), maxComposerLines)
}

func (c *composer) value() string { return c.ta.Value() }
func (c *composer) empty() bool   { return c.ta.Value() == "" }

// clear empties the composer and leaves history browsing.
func (c *composer) clear() {
	c.ta.Reset()
	c.histIdx = -1
	c.shownOK = false
}

// setValue replaces the text.
func (c *composer) setValue(s string) {
	c.ta.SetValue(s)
	c.shownOK = false
}

// restore puts a returned prompt back: alone when the composer is empty,
// before the current draft otherwise.
func (c *composer) restore(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	cur := c.ta.Value()
	if cur != "" {
		text = text + "\n" + cur
	}
	c.setValue(text)
	c.histIdx = -1
}

// remember adds a sent prompt to history (no immediate duplicates).
func (c *composer) remember(s string) {
	if n := len(c.history); n == 0 || c.history[n-1] != s {
		c.history = append(c.history, s)
	}
	c.histIdx = -1
}

// browsing reports whether the composer shows a history entry unchanged.
func (c *composer) browsing() bool {
	return c.histIdx >= 0 && c.histIdx < len(c.browse) && c.ta.Value() == c.browse[c.histIdx]
}

// setSessionPrompts hands the composer the session's prompts, oldest
// first, for the next history walk.
func (c *composer) setSessionPrompts(prompts []string) { c.session = prompts }

// historyPosition is the history entry shown (i of n) while browsing.
func (c *composer) historyPosition() (i, n int, ok bool) {
	if len(c.browse) == 0 || !c.browsing() {
		return 0, 0, false
	}
	return c.histIdx, len(c.browse), true
}

// historyPrev shows the previous prompt; it reports whether it applied
// (empty composer or already browsing, and older history exists).
func (c *composer) historyPrev() bool {
	if !c.empty() && !c.browsing() {
		return false
	}
	if !c.browsing() {
		c.browse = mergePrompts(c.session, c.history)
	}
	if len(c.browse) == 0 {
		return false
	}
	i := len(c.browse) - 1
	if c.browsing() {
		if c.histIdx == 0 {
			return true
		}
		i = c.histIdx - 1
	}
	c.histIdx = i
	c.setValue(c.browse[i])
	return true
}

// historyNext shows the next prompt, or empties the composer past the
// newest; it applies only while browsing.
func (c *composer) historyNext() bool {
	if !c.browsing() {
		return false
	}
	if c.histIdx >= len(c.browse)-1 {
		c.clear()
		return true
	}
	c.histIdx++
	c.setValue(c.browse[c.histIdx])
	return true
}

// mergePrompts is the history up and down walk, oldest first: the
// session's prompts (sent from here or from any other client), then the
// local entries the session does not hold (drafts cleared with ctrl+c,
// prompts still in flight), with no entry twice in a row.
func mergePrompts(session, local []string) []string {
	out := make([]string, 0, len(session)+len(local))
	seen := make(map[string]bool, len(session))
	add := func(s string) {
		if strings.TrimSpace(s) == "" || len(out) > 0 && out[len(out)-1] == s {
			return
		}
		out = append(out, s)
	}
	for _, s := range session {
		seen[s] = true
		add(s)
	}
	for _, s := range local {
		if !seen[s] {
			add(s)
		}
	}
	return out
}

// update hands a message to the textarea.
func (c *composer) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	c.ta, cmd = c.ta.Update(msg)
	c.shownOK = false
	return cmd
}

func (c *composer) focus() tea.Cmd { c.shownOK = false; return c.ta.Focus() }
func (c *composer) blur()          { c.shownOK = false; c.ta.Blur() }

// view renders the rule and the textarea; unchanged, it is the last
// view again (the theme is part of what setTheme clears).
func (c *composer) view(t themes.Theme, label string) string {
	if c.shownOK && c.shownLabel == label {
		return c.shown
	}
	c.shown, c.shownLabel, c.shownOK = c.render(t, label), label, true
	return c.shown
}

func (c *composer) render(t themes.Theme, label string) string {
	rule := label
	w := max(c.width, 1)
	if rest := w - lipglossWidth(rule); rest > 0 {
		rule += t.Divider.Render(strings.Repeat("─", rest))
	}
	return fit(rule, w) + "\n" + c.ta.View()
}
