// Package keymap holds Lookout's key bindings and their help text.
//
// Every key the terminal UI reacts to is a key.Binding here, so that the
// help screen (`?`) and docs/keys.md list exactly what the program does.
// Bindings are grouped by where they apply: anywhere, in the composer (the
// prompt box, focused by default) and in the transcript (focused with tab).
package keymap

import "charm.land/bubbles/v2/key"

// KeyMap is the complete set of bindings. The zero value binds nothing; use
// Default. A KeyMap is a plain value: copying it copies every binding.
type KeyMap struct {
	// Anywhere.
	Quit        key.Binding // ctrl+c: interrupts a running turn, clears the composer, or quits when pressed twice
	Help        key.Binding // ? (outside a non-empty composer) and f1: toggles the full key list
	Diagnostics key.Binding // ! (outside a non-empty composer) and f2: the diagnostics view (warnings, errors)
	FocusNext   key.Binding // tab: moves focus between the composer and the transcript
	Interrupt   key.Binding // esc: interrupts the running turn
	PageUp      key.Binding // pgup: scrolls the transcript up a page
	PageDown    key.Binding // pgdown: scrolls the transcript down a page
	Retry       key.Binding // ctrl+r: retries syncing after a sync error
	Approve     key.Binding // alt+a: approves the waiting tool call
	Deny        key.Binding // alt+d: denies the waiting tool call
	ApproveAll  key.Binding // alt+s: approves it and the like of it for the session, when the agent offers that
	Unqueue     key.Binding // alt+u: unqueues the selected or newest queued prompt
	MouseTrack  key.Binding // alt+m: releases or captures the mouse
	Sessions    key.Binding // ctrl+s, ctrl+o: leaves this session for the session picker over the same host
	TakeBack    key.Binding // alt+e: puts the newest failed prompt's text back in the composer
	PromptPrev  key.Binding // alt+up: selects the previous prompt (userMessage) in the transcript
	PromptNext  key.Binding // alt+down: selects the next prompt in the transcript
	SearchAny   key.Binding // ctrl+f: opens the search line
	Editor      key.Binding // ctrl+g: edits the draft in $VISUAL or $EDITOR
	Export      key.Binding // alt+w: writes the markdown transcript to a file in the current directory

	// Composer (focused by default).
	Send        key.Binding // enter: sends the prompt
	Newline     key.Binding // ctrl+j, alt+enter: inserts a newline
	HistoryPrev key.Binding // up (empty composer): the previous prompt sent
	HistoryNext key.Binding // down (while browsing history): the next prompt sent
	Top         key.Binding // home (empty composer or transcript): the top of the transcript
	Bottom      key.Binding // end (empty composer or transcript): the bottom, following new output

	// Transcript (focused with tab).
	SelectPrev   key.Binding // up, k: selects the previous row
	SelectNext   key.Binding // down, j: selects the next row
	LineUp       key.Binding // shift+up, ctrl+y: scrolls up a line
	LineDown     key.Binding // shift+down, ctrl+e: scrolls down a line
	HalfUp       key.Binding // ctrl+u: scrolls up half a page
	HalfDown     key.Binding // ctrl+d: scrolls down half a page
	TopAlt       key.Binding // g: the top of the transcript
	BottomAlt    key.Binding // G: the bottom of the transcript
	Toggle       key.Binding // enter, space: expands or collapses the selected item
	PromptPrevT  key.Binding // [: selects the previous prompt
	PromptNextT  key.Binding // ]: selects the next prompt
	ExpandAll    key.Binding // E: expands every item
	CollapseAll  key.Binding // C: collapses every item
	ExportT      key.Binding // w: writes the markdown transcript to a file
	Search       key.Binding // /: opens the search line
	SearchPrev   key.Binding // N: the next older match
	SearchNext   key.Binding // n: the next newer match
	Copy         key.Binding // y: copies the selected item (OSC 52)
	ApproveT     key.Binding // a: approves the waiting tool call (not while a draft waits: alt+a)
	DenyT        key.Binding // d: denies the waiting tool call (not while a draft waits: alt+d)
	ApproveAllT  key.Binding // s: approves it for the session, when the agent offers that
	UnqueueT     key.Binding // u: unqueues the selected or newest queued prompt
	TakeBackT    key.Binding // e: puts the selected (or newest) failed prompt's text back in the composer
	MouseTrackT  key.Binding // m: releases or captures the mouse
	RetryT       key.Binding // r: retries syncing after a sync error
	Compose      key.Binding // i: focuses the composer
	QuitT        key.Binding // q: quits (asks first while a draft waits)
	ClearSelect  key.Binding // esc (no running turn): clears the selection and focuses the composer
	HelpClose    key.Binding // esc, q, ?: closes the help screen (esc, q, ! the diagnostics view)
	ListScroll   key.Binding // up/k, down/j, pgup, pgdown, home/g, end/G: scrolls the help and diagnostics screens
	PickerSelect key.Binding // enter: opens the highlighted session in the session picker
	PickerNew    key.Binding // n: starts a new session from the session picker (agent hosts)
	SearchLine   key.Binding // enter, esc: on the search line, finds the newest match or closes the search
}

// Default returns Lookout's bindings.
func Default() KeyMap {
	b := func(keys []string, helpKey, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
	}
	k := func(keys ...string) []string { return keys }
	return KeyMap{
		Quit:        b(k("ctrl+c"), "ctrl+c", "interrupt turn · clear draft · quit"),
		Help:        b(k("?", "f1"), "?/f1", "all keys"),
		Diagnostics: b(k("!", "f2"), "!/f2", "diagnostics: warnings, errors"),
		FocusNext:   b(k("tab"), "tab", "focus composer/transcript"),
		Interrupt:   b(k("esc"), "esc", "interrupt running turn"),
		PageUp:      b(k("pgup"), "pgup", "page up"),
		PageDown:    b(k("pgdown"), "pgdown", "page down"),
		Retry:       b(k("ctrl+r"), "ctrl+r", "retry sync"),
		Approve:     b(k("alt+a"), "alt+a", "approve tool"),
		Deny:        b(k("alt+d"), "alt+d", "deny tool"),
		ApproveAll:  b(k("alt+s"), "alt+s", "approve for the session"),
		Unqueue:     b(k("alt+u"), "alt+u", "unqueue prompt"),
		MouseTrack:  b(k("alt+m"), "alt+m", "release/capture mouse"),
		Sessions:    b(k("ctrl+s", "ctrl+o"), "ctrl+s/ctrl+o", "switch session (picker)"),
		TakeBack:    b(k("alt+e"), "alt+e", "failed prompt back to the composer"),
		PromptPrev:  b(k("alt+up"), "alt+↑", "previous prompt"),
		PromptNext:  b(k("alt+down"), "alt+↓", "next prompt"),
		SearchAny:   b(k("ctrl+f"), "ctrl+f", "search the transcript"),
		Editor:      b(k("ctrl+g"), "ctrl+g", "write the prompt in $VISUAL/$EDITOR"),
		Export:      b(k("alt+w"), "alt+w", "export the transcript (markdown file)"),

		Send:        b(k("enter"), "enter", "send"),
		Newline:     b(k("ctrl+j", "alt+enter", "shift+enter"), "ctrl+j/alt+enter", "newline"),
		HistoryPrev: b(k("up"), "up", "previous prompt (empty composer)"),
		HistoryNext: b(k("down"), "down", "next prompt (in history)"),
		Top:         b(k("home"), "home", "top (empty composer)"),
		Bottom:      b(k("end"), "end", "bottom, follow (empty composer)"),

		SelectPrev:  b(k("up", "k"), "↑/k", "select previous"),
		SelectNext:  b(k("down", "j"), "↓/j", "select next"),
		LineUp:      b(k("shift+up", "ctrl+y"), "shift+↑/ctrl+y", "line up"),
		LineDown:    b(k("shift+down", "ctrl+e"), "shift+↓/ctrl+e", "line down"),
		HalfUp:      b(k("ctrl+u"), "ctrl+u", "half page up"),
		HalfDown:    b(k("ctrl+d"), "ctrl+d", "half page down"),
		TopAlt:      b(k("g", "home"), "g/home", "top"),
		BottomAlt:   b(k("G", "end"), "G/end", "bottom, follow"),
		Toggle:      b(k("enter", "space"), "enter/space", "expand/collapse"),
		PromptPrevT: b(k("["), "[", "previous prompt"),
		PromptNextT: b(k("]"), "]", "next prompt"),
		ExpandAll:   b(k("E"), "E", "expand all"),
		CollapseAll: b(k("C"), "C", "collapse all"),
		ExportT:     b(k("w"), "w", "export the transcript (markdown file)"),
		Search:      b(k("/"), "/", "search"),
		SearchPrev:  b(k("N"), "N", "older match (loads older history)"),
		SearchNext:  b(k("n"), "n", "newer match"),
		Copy:        b(k("y"), "y", "copy item (OSC 52)"),
		ApproveT:    b(k("a"), "a", "approve tool (no draft waiting)"),
		DenyT:       b(k("d"), "d", "deny tool (no draft waiting)"),
		ApproveAllT: b(k("s"), "s", "approve for the session (no draft)"),
		UnqueueT:    b(k("u"), "u", "unqueue prompt (no draft waiting)"),
		TakeBackT:   b(k("e"), "e", "failed prompt back to the composer"),
		MouseTrackT: b(k("m"), "m", "release/capture mouse"),
		RetryT:      b(k("r"), "r", "retry sync"),
		Compose:     b(k("i"), "i", "write a prompt"),
		QuitT:       b(k("q"), "q", "quit (asks if a draft waits)"),
		ClearSelect: b(k("esc"), "esc", "back to composer"),
		HelpClose:   b(k("esc", "q", "?", "f1"), "esc/q/?", "close help (esc/q/! diagnostics)"),
		ListScroll: b(k("up", "k", "down", "j", "pgup", "pgdown", "space", "home", "g", "end", "G"),
			"↑/↓ pgup/pgdn", "scroll help, diagnostics (home/end too)"),
		PickerSelect: b(k("enter"), "enter", "open session"),
		PickerNew:    b(k("n"), "n", "new session (picker of an agent host)"),
		SearchLine:   b(k("enter", "esc"), "enter/esc", "search line: find newest match · close"),
	}
}

// Groups returns the bindings in their help groups, in display order: a
// title and its bindings. The help screen and docs/keys.md use it.
func (m KeyMap) Groups() []Group {
	return []Group{
		{Title: "Anywhere", Bindings: []key.Binding{m.Quit, m.Help, m.Diagnostics, m.FocusNext, m.Interrupt, m.PageUp, m.PageDown,
			m.Retry, m.Approve, m.Deny, m.ApproveAll, m.Unqueue, m.TakeBack, m.MouseTrack, m.Sessions, m.PromptPrev, m.PromptNext, m.SearchAny, m.Editor, m.Export}},
		{Title: "Composer", Bindings: []key.Binding{m.Send, m.Newline, m.HistoryPrev, m.HistoryNext, m.Top, m.Bottom}},
		{Title: "Transcript", Bindings: []key.Binding{m.SelectPrev, m.SelectNext, m.LineUp, m.LineDown, m.HalfUp,
			m.HalfDown, m.TopAlt, m.BottomAlt, m.Toggle, m.PromptPrevT, m.PromptNextT, m.ExpandAll, m.CollapseAll, m.Search, m.SearchPrev, m.SearchNext, m.ExportT, m.Copy, m.ApproveT, m.DenyT, m.ApproveAllT, m.UnqueueT, m.TakeBackT, m.MouseTrackT,
			m.RetryT, m.Compose, m.ClearSelect, m.QuitT}},
		{Title: "Help and picker", Bindings: []key.Binding{m.HelpClose, m.ListScroll, m.PickerSelect, m.PickerNew, m.SearchLine}},
	}
}

// Group is a titled list of bindings.
type Group struct {
	Title    string
	Bindings []key.Binding
}

// ShortHelp is the one-line hint (help.KeyMap).
func (m KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{m.Send, m.FocusNext, m.PageUp, m.Interrupt, m.Help}
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
