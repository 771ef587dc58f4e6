// Package keymap holds Lookout's key bindings and their help text.
//
// Every key the terminal UI reacts to is a key.Binding here, so that the
// help screen (`?`) and docs/keys.md list exactly what the program does.
// Bindings are nested by the scope where they apply: anywhere (Global), in
// the composer (the prompt box, focused by default), in the transcript
// (focused with tab), on the help and diagnostics screens, in the session
// picker and on the search line. A key may mean one thing anywhere and
// another in a scope: Global.Approve is alt+a, Transcript.Approve is a.
package keymap

import "charm.land/bubbles/v2/key"

// KeyMap is the complete set of bindings. The zero value binds nothing; use
// Default. A KeyMap is a plain value: copying it copies every binding.
type KeyMap struct {
	Global     GlobalKeys
	Composer   ComposerKeys
	Transcript TranscriptKeys
	Help       HelpKeys
	Picker     PickerKeys
	Search     SearchKeys
	Commands   CommandKeys
}

// GlobalKeys work anywhere.
type GlobalKeys struct {
	Quit        key.Binding // ctrl+c: interrupts a running turn, clears the composer, or quits when pressed twice
	Help        key.Binding // ? (outside a non-empty composer) and f1: toggles the full key list
	Diagnostics key.Binding // ! (outside a non-empty composer) and f2: the diagnostics view (warnings, errors)
	FocusNext   key.Binding // tab: moves focus between the composer and the transcript
	Interrupt   key.Binding // esc: interrupts the running turn
	PageUp      key.Binding // pgup: scrolls the transcript up a page
	PageDown    key.Binding // pgdown: scrolls the transcript down a page
	Retry       key.Binding // ctrl+r: retries syncing after a sync error
	Approve     key.Binding // alt+a: approves the waiting tool call
	Deny        key.Binding // alt+d: denies the waiting tool call, asking for a reason first
	ApproveAll  key.Binding // alt+s: approves it and the like of it for the session, when the agent offers that
	Question    key.Binding // alt+q: gives the keyboard back to a waiting question after esc
	Plan        key.Binding // alt+p: collapses the running turn's pinned plan to one line, or expands it
	Unqueue     key.Binding // alt+u: unqueues the selected or newest queued prompt
	TakeBack    key.Binding // alt+e: puts the newest failed prompt's text back in the composer
	MouseTrack  key.Binding // alt+m: releases or captures the mouse
	Sessions    key.Binding // ctrl+s, ctrl+o: leaves this session for the session picker over the same host
	PromptPrev  key.Binding // alt+up: selects the previous prompt (userMessage) in the transcript
	PromptNext  key.Binding // alt+down: selects the next prompt in the transcript
	Search      key.Binding // ctrl+f: opens the search line
	Editor      key.Binding // ctrl+g: edits the draft in $VISUAL or $EDITOR
	Export      key.Binding // alt+w: writes the markdown transcript to a file in the current directory
}

// ComposerKeys work in the composer (focused by default).
type ComposerKeys struct {
	Send        key.Binding // enter: sends the prompt
	Newline     key.Binding // ctrl+j, alt+enter: inserts a newline
	Steer       key.Binding // alt+t: sends the prompt into the running turn (where the agent takes it)
	HistoryPrev key.Binding // up (empty composer): the previous prompt sent
	HistoryNext key.Binding // down (while browsing history): the next prompt sent
	Top         key.Binding // home (empty composer): the session's first item (fetched at once when not loaded)
	Bottom      key.Binding // end (empty composer): the bottom, following new output
}

// TranscriptKeys work in the transcript (focused with tab).
type TranscriptKeys struct {
	SelectPrev  key.Binding // up, k: selects the previous row
	SelectNext  key.Binding // down, j: selects the next row
	LineUp      key.Binding // shift+up, ctrl+y: scrolls up a line
	LineDown    key.Binding // shift+down, ctrl+e: scrolls down a line
	HalfUp      key.Binding // ctrl+u: scrolls up half a page
	HalfDown    key.Binding // ctrl+d: scrolls down half a page
	Top         key.Binding // g, home: the session's first item (fetched at once when not loaded)
	Bottom      key.Binding // G, end: the bottom of the transcript
	Toggle      key.Binding // enter, space: expands or collapses the selected item
	PromptPrev  key.Binding // [: selects the previous prompt
	PromptNext  key.Binding // ]: selects the next prompt
	ExpandAll   key.Binding // E: expands every item
	CollapseAll key.Binding // C: collapses every item
	Search      key.Binding // /: opens the search line
	SearchPrev  key.Binding // N: the next older match
	SearchNext  key.Binding // n: the next newer match
	Export      key.Binding // w: writes the markdown transcript to a file
	Copy        key.Binding // y: copies the selected item (OSC 52)
	Approve     key.Binding // a: approves the waiting tool call (not while a draft waits: Global.Approve)
	Deny        key.Binding // d: denies the waiting tool call (not while a draft waits: Global.Deny)
	ApproveAll  key.Binding // s: approves it for the session, when the agent offers that
	Unqueue     key.Binding // u: unqueues the selected or newest queued prompt
	TakeBack    key.Binding // e: puts the selected (or newest) failed prompt's text back in the composer
	MouseTrack  key.Binding // m: releases or captures the mouse
	Retry       key.Binding // r: retries syncing after a sync error
	Compose     key.Binding // i: focuses the composer
	ClearSelect key.Binding // esc (no running turn): clears the selection and focuses the composer
	Quit        key.Binding // q: quits (asks first while a draft waits)
}

// HelpKeys work on the help and diagnostics screens.
type HelpKeys struct {
	Close  key.Binding // esc, q, ?: closes the help screen (esc, q, ! the diagnostics view)
	Scroll key.Binding // up/k, down/j, pgup, pgdown, home/g, end/G: scrolls the help and diagnostics screens
}

// PickerKeys work in the session picker (it moves and cancels with the
// transcript's SelectPrev, SelectNext, ClearSelect and Quit).
type PickerKeys struct {
	Select key.Binding // enter: opens the highlighted session
	New    key.Binding // ctrl+n: starts a new session; a chord, since typing filters
	Delete key.Binding // ctrl+d, delete: deletes the highlighted session once confirmed (y/enter; n/esc keeps it)
}

// SearchKeys work on the search line.
type SearchKeys struct {
	Line key.Binding // enter, esc: finds the newest match or closes the search
}

// CommandKeys work while the slash-command list is open ("/" typed at the
// start of the composer) and on the question a command nobody offers asks.
type CommandKeys struct {
	Open    key.Binding // /: at the start of the composer, opens the command list, filtered as you type
	Prev    key.Binding // up, ctrl+p: the previous command in the list
	Next    key.Binding // down, ctrl+n: the next command in the list
	Accept  key.Binding // tab: completes the highlighted command in the composer
	Run     key.Binding // enter: runs the highlighted command
	Close   key.Binding // esc: closes the list, keeping the text
	Confirm key.Binding // y, enter: sends a /word no one offers as plain text, once asked (esc keeps it)
}

// Default returns Lookout's bindings.
func Default() KeyMap {
	b := func(keys []string, helpKey, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
	}
	k := func(keys ...string) []string { return keys }
	return KeyMap{
		Global: GlobalKeys{
			Quit:        b(k("ctrl+c"), "ctrl+c", "interrupt turn · clear draft · quit"),
			Help:        b(k("?", "f1"), "?/f1", "all keys"),
			Diagnostics: b(k("!", "f2"), "!/f2", "diagnostics: warnings, errors"),
			FocusNext:   b(k("tab"), "tab", "focus composer/transcript"),
			Interrupt:   b(k("esc"), "esc", "interrupt running turn"),
			PageUp:      b(k("pgup"), "pgup", "page up"),
			PageDown:    b(k("pgdown"), "pgdown", "page down"),
			Retry:       b(k("ctrl+r"), "ctrl+r", "retry sync"),
			Approve:     b(k("alt+a"), "alt+a", "approve tool"),
			Deny:        b(k("alt+d"), "alt+d", "deny tool, with a reason"),
			ApproveAll:  b(k("alt+s"), "alt+s", "approve for the session"),
			Question:    b(k("alt+q"), "alt+q", "back to the waiting question"),
			Plan:        b(k("alt+p"), "alt+p", "collapse/expand the pinned plan"),
			Unqueue:     b(k("alt+u"), "alt+u", "unqueue prompt"),
			TakeBack:    b(k("alt+e"), "alt+e", "failed prompt back to the composer"),
			MouseTrack:  b(k("alt+m"), "alt+m", "release/capture mouse"),
			Sessions:    b(k("ctrl+s", "ctrl+o"), "ctrl+s/ctrl+o", "switch session (picker)"),
			PromptPrev:  b(k("alt+up"), "alt+↑", "previous prompt"),
			PromptNext:  b(k("alt+down"), "alt+↓", "next prompt"),
			Search:      b(k("ctrl+f"), "ctrl+f", "search the transcript"),
			Editor:      b(k("ctrl+g"), "ctrl+g", "write the prompt in $VISUAL/$EDITOR"),
			Export:      b(k("alt+w"), "alt+w", "export the transcript (markdown file)"),
		},
		Composer: ComposerKeys{
			Send:        b(k("enter"), "enter", "send"),
			Newline:     b(k("ctrl+j", "alt+enter", "shift+enter"), "ctrl+j/alt+enter", "newline"),
			Steer:       b(k("alt+t"), "alt+t", "send into the running turn (steer)"),
			HistoryPrev: b(k("up"), "up", "previous prompt (empty composer)"),
			HistoryNext: b(k("down"), "down", "next prompt (in history)"),
			Top:         b(k("home"), "home", "session start (empty composer)"),
			Bottom:      b(k("end"), "end", "bottom, follow (empty composer)"),
		},
		Transcript: TranscriptKeys{
			SelectPrev:  b(k("up", "k"), "↑/k", "select previous"),
			SelectNext:  b(k("down", "j"), "↓/j", "select next"),
			LineUp:      b(k("shift+up", "ctrl+y"), "shift+↑/ctrl+y", "line up"),
			LineDown:    b(k("shift+down", "ctrl+e"), "shift+↓/ctrl+e", "line down"),
			HalfUp:      b(k("ctrl+u"), "ctrl+u", "half page up"),
			HalfDown:    b(k("ctrl+d"), "ctrl+d", "half page down"),
			Top:         b(k("g", "home"), "g/home", "session start (first item)"),
			Bottom:      b(k("G", "end"), "G/end", "bottom, follow"),
			Toggle:      b(k("enter", "space"), "enter/space", "expand/collapse"),
			PromptPrev:  b(k("["), "[", "previous prompt"),
			PromptNext:  b(k("]"), "]", "next prompt"),
			ExpandAll:   b(k("E"), "E", "expand all"),
			CollapseAll: b(k("C"), "C", "collapse all"),
			Search:      b(k("/"), "/", "search"),
			SearchPrev:  b(k("N"), "N", "older match (loads older history)"),
			SearchNext:  b(k("n"), "n", "newer match"),
			Export:      b(k("w"), "w", "export the transcript (markdown file)"),
			Copy:        b(k("y"), "y", "copy item (OSC 52)"),
			Approve:     b(k("a"), "a", "approve tool (no draft waiting)"),
			Deny:        b(k("d"), "d", "deny tool, with a reason (no draft)"),
			ApproveAll:  b(k("s"), "s", "approve for the session (no draft)"),
			Unqueue:     b(k("u"), "u", "unqueue prompt (no draft waiting)"),
			TakeBack:    b(k("e"), "e", "failed prompt back to the composer"),
			MouseTrack:  b(k("m"), "m", "release/capture mouse"),
			Retry:       b(k("r"), "r", "retry sync"),
			Compose:     b(k("i"), "i", "write a prompt"),
			ClearSelect: b(k("esc"), "esc", "back to composer"),
			Quit:        b(k("q"), "q", "quit (asks if a draft waits)"),
		},
		Help: HelpKeys{
			Close: b(k("esc", "q", "?", "f1"), "esc/q/?", "close help (esc/q/! diagnostics)"),
			Scroll: b(k("up", "k", "down", "j", "pgup", "pgdown", "space", "home", "g", "end", "G"),
				"↑/↓ pgup/pgdn", "scroll help, diagnostics (home/end too)"),
		},
		Picker: PickerKeys{
			Select: b(k("enter"), "enter", "open session"),
			New:    b(k("ctrl+n"), "ctrl+n", "new session"),
			Delete: b(k("ctrl+d", "delete"), "ctrl+d/delete", "delete session (asks y/n first)"),
		},
		Search: SearchKeys{
			Line: b(k("enter", "esc"), "enter/esc", "search line: find newest match · close"),
		},
		Commands: CommandKeys{
			Open:    b(k("/"), "/", "command list (at the start of the composer)"),
			Prev:    b(k("up", "ctrl+p"), "↑/ctrl+p", "previous command"),
			Next:    b(k("down", "ctrl+n"), "↓/ctrl+n", "next command"),
			Accept:  b(k("tab"), "tab", "complete the command"),
			Run:     b(k("enter"), "enter", "run the command"),
			Close:   b(k("esc"), "esc", "close the list"),
			Confirm: b(k("y", "enter"), "y/enter", "send an unknown /word as text (esc keeps it)"),
		},
	}
}

// Bindings returns the scope's bindings in help order.
func (g GlobalKeys) Bindings() []key.Binding {
	return []key.Binding{g.Quit, g.Help, g.Diagnostics, g.FocusNext, g.Interrupt, g.PageUp, g.PageDown,
		g.Retry, g.Approve, g.Deny, g.ApproveAll, g.Question, g.Plan, g.Unqueue, g.TakeBack, g.MouseTrack, g.Sessions,
		g.PromptPrev, g.PromptNext, g.Search, g.Editor, g.Export}
}

// Bindings returns the scope's bindings in help order.
func (c ComposerKeys) Bindings() []key.Binding {
	return []key.Binding{c.Send, c.Steer, c.Newline, c.HistoryPrev, c.HistoryNext, c.Top, c.Bottom}
}

// Bindings returns the scope's bindings in help order.
func (t TranscriptKeys) Bindings() []key.Binding {
	return []key.Binding{t.SelectPrev, t.SelectNext, t.LineUp, t.LineDown, t.HalfUp, t.HalfDown,
		t.Top, t.Bottom, t.Toggle, t.PromptPrev, t.PromptNext, t.ExpandAll, t.CollapseAll,
		t.Search, t.SearchPrev, t.SearchNext, t.Export, t.Copy, t.Approve, t.Deny, t.ApproveAll,
		t.Unqueue, t.TakeBack, t.MouseTrack, t.Retry, t.Compose, t.ClearSelect, t.Quit}
}

// Bindings returns the scope's bindings in help order.
func (h HelpKeys) Bindings() []key.Binding { return []key.Binding{h.Close, h.Scroll} }

// Bindings returns the scope's bindings in help order.
func (p PickerKeys) Bindings() []key.Binding { return []key.Binding{p.Select, p.New, p.Delete} }

// Bindings returns the scope's bindings in help order.
func (s SearchKeys) Bindings() []key.Binding { return []key.Binding{s.Line} }

// Bindings returns the scope's bindings in help order.
func (c CommandKeys) Bindings() []key.Binding {
	return []key.Binding{c.Open, c.Prev, c.Next, c.Accept, c.Run, c.Close, c.Confirm}
}

// Groups returns the bindings in their help groups, in display order: a
// title and its bindings, one group per scope except the last, which
// gathers the help screens, the picker and the search line. The help
// screen and docs/keys.md use it.
func (m KeyMap) Groups() []Group {
	return []Group{
		{Title: "Anywhere", Bindings: m.Global.Bindings()},
		{Title: "Composer", Bindings: m.Composer.Bindings()},
		{Title: "Transcript", Bindings: m.Transcript.Bindings()},
		{Title: "Help and picker", Bindings: append(append(m.Help.Bindings(), m.Picker.Bindings()...), m.Search.Bindings()...)},
		{Title: "Slash commands", Bindings: m.Commands.Bindings()},
	}
}

// Group is a titled list of bindings.
type Group struct {
	Title    string
	Bindings []key.Binding
}

// ShortHelp is the one-line hint (help.KeyMap).
func (m KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{m.Composer.Send, m.Global.FocusNext, m.Global.PageUp, m.Global.Interrupt, m.Global.Help}
}

// FullHelp is every binding, one column per group (help.KeyMap).
func (m KeyMap) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range m.Groups() {
		out = append(out, g.Bindings)
	}
	return out
}

// All returns every binding once, in group order.
func (m KeyMap) All() []key.Binding {
	var out []key.Binding
	for _, g := range m.Groups() {
		out = append(out, g.Bindings...)
	}
	return out
}
