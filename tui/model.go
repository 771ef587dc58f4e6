// Package tui is Lookout's terminal UI: one Bubble Tea model showing a
// session's transcript, a composer, freshness banners, a status bar, an
// approval bar and a help screen.
//
// The UI reads everything from a Source (a *sync.Client in the program):
// the fold's View is the single source of truth and the UI never patches
// rows of its own. Update does no I/O: commands to the source run in
// tea.Cmds, and the source's change signal is read by a tea.Cmd that turns
// it into a message. Repaints are coalesced to at most one per frame.
package tui

import (
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/lookout-sh/lookout/keymap"
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/render"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
	"github.com/lookout-sh/lookout/themes"
)

// DefaultFrameInterval is how long the UI waits after a change signal
// before repainting, so that a burst of deltas costs one frame: 30 frames
// a second at most while an answer streams.
const DefaultFrameInterval = 33 * time.Millisecond

// maxFrameInterval bounds how far frame pacing stretches under load.
const maxFrameInterval = 250 * time.Millisecond

// frameLoad is how many times a frame's own cost the UI waits before the
// next one: a frame that took 20 ms is followed by one no sooner than
// 60 ms later, so laying out streamed text takes at most about a third of
// a core and keys never wait long behind it.
const frameLoad = 3

// Options configure a Model.
type Options struct {
	// Source is the session connection. Required.
	Source Source
	// Theme is "dark", "light" or "auto" ("" means auto: dark until the
	// terminal reports its background).
	Theme string
	// Host is shown in the status bar (for example the host URL).
	Host string
	// SessionID is shown in the status bar while the session has no title.
	SessionID string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// KeyMap overrides the bindings; nil means keymap.Default().
	KeyMap *keymap.KeyMap
	// FrameInterval is the repaint coalescing delay; 0 means
	// DefaultFrameInterval. Under load the delay stretches to frameLoad
	// times the last frame's cost (at most maxFrameInterval), unless Still
	// is set.
	FrameInterval time.Duration
	// Still disables animation: spinners show a fixed frame and no
	// animation ticks are scheduled (deterministic output for tests and
	// slow links), and frames come exactly FrameInterval after a change.
	// The status bar's elapsed time still follows Now on every repaint.
	Still bool
	// NoMouse starts with the mouse released (native selection works; the
	// wheel does not scroll).
	NoMouse bool
	// OfferSessions lets the user leave this session for a session picker
	// (keymap Sessions): the program quits and SwitchSession reports it.
	// Set by `lookout attach`, which shows the picker again.
	OfferSessions bool
	// Draft is the composer's text at start (a draft handed over from the
	// previous session's model, Draft).
	Draft string
}

type focusArea int

const (
	focusComposer focusArea = iota
	focusTranscript
)

// Model is the root tea.Model. Use it through a pointer: Update returns
// the same *Model it was called on.
type Model struct {
	opts  Options
	src   Source
	km    keymap.KeyMap
	now   func() time.Time
	theme themes.Theme
	auto  bool // theme follows the terminal background
	r     *render.Renderer

	snap    sync.Picture
	viewGen uint64
	view    *model.View
	taken   uint64 // highest Returned number taken (composer or failed row)

	failed   []failedPrompt                // prompts the host did not run, shown as rows (failed.go)
	pendSeen map[string]model.PendingEntry // this client's pending prompts in the last View

	tr   *transcript
	srch search // the transcript search (search.go)
	comp composer

	width, height int
	focus         focusArea
	overlay       overlay // help or diagnostics instead of the transcript
	overlayOff    int     // the overlay's scroll offset
	diag          diagLog // every warning and error seen, for the diagnostics view
	statusClick   [2]int  // the status bar's diagnostics count: cells [from, to)
	mouse         bool

	framePending bool
	frameCost    time.Duration // what the last frame's layout took
	ticking      bool
	spinIdx      int
	olderAsked   string // oldest row key when LoadOlder was last called

	quitArmed     bool
	quitGen       int
	switchSession bool // the user asked for the session picker
	confirmQuit   bool // "discard the draft and quit?" is asked
	notice        string
	noticeBad     bool
	noticeGen     int
	noticeTurn    string // the notice is about this turn: it ends with it

	initCmd tea.Cmd // what the first layout asked for (older history)

	frame string // the last composed screen
	dirty bool

	// after schedules a timer message (tea.Tick; tests replace it).
	after func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
}

var spinFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// Messages.
type (
	updateMsg       struct{}
	sourceClosedMsg struct{}
	frameMsg        struct{}
	tickMsg         struct{}
	quitExpiredMsg  struct{ gen int }
	noticeExpired   struct{ gen int }
	copiedMsg       struct{ n int }
)

// New builds the model. It reads the source's current snapshot so that
// the first frame already shows what the source holds.
func New(opts Options) (*Model, error) {
	if opts.Source == nil {
		return nil, errors.New("tui: no source")
	}
	name := opts.Theme
	if name == "" {
		name = "auto"
	}
	th, err := themes.ByName(name, true)
	if err != nil {
		return nil, err
	}
	m := &Model{opts: opts, src: opts.Source, theme: th, auto: name == "auto", mouse: !opts.NoMouse,
		pendSeen: map[string]model.PendingEntry{}}
	m.now = opts.Now
	if m.now == nil {
		m.now = time.Now
	}
	if opts.KeyMap != nil {
		m.km = *opts.KeyMap
	} else {
		m.km = keymap.Default()
	}
	if m.opts.FrameInterval <= 0 {
		m.opts.FrameInterval = DefaultFrameInterval
	}
	m.after = tea.Tick
	m.r = render.New(th)
	m.tr = newTranscript(m.r, th)
	m.tr.failHint = bindingKeys(m.km.TakeBackT) + " (" + bindingKeys(m.km.TakeBack) + " anywhere) puts it back in the composer"
	m.comp = newComposer(m.km, th)
	if opts.Draft != "" {
		m.comp.setValue(opts.Draft)
	}
	m.width, m.height = 80, 24
	m.pull()
	m.initCmd = m.refresh()
	return m, nil
}

// Init starts waiting for source updates and, for the auto theme, asks
// the terminal for its background colour.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.waitUpdate(), m.startTicking(), m.initCmd, m.clockTick()}
	m.initCmd = nil
	if m.auto {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	return tea.Batch(cmds...)
}

// waitUpdate blocks (in its own goroutine) until the source signals.
func (m *Model) waitUpdate() tea.Cmd {
	ch := m.src.Updates()
	return func() tea.Msg {
		if _, ok := <-ch; !ok {
			return sourceClosedMsg{}
		}
		return updateMsg{}
	}
}

// call runs a source command off the event loop.
func call(fn func()) tea.Cmd {
	return func() tea.Msg { fn(); return nil }
}

// Update handles one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case updateMsg:
		cmds = append(cmds, m.waitUpdate())
		if !m.framePending {
			m.framePending = true
			cmds = append(cmds, m.after(m.frameDelay(), func(time.Time) tea.Msg { return frameMsg{} }))
		}
	case sourceClosedMsg:
		// The source stopped; keep showing the last picture.
	case frameMsg:
		m.framePending = false
		start := time.Now()
		m.pull()
		cmds = append(cmds, m.refresh(), m.startTicking(), m.searchOlderArrived())
		m.frameCost = time.Since(start)
	case tickMsg:
		m.ticking = false
		m.spinIdx++
		m.dirty = true
		cmds = append(cmds, m.startTicking())
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.dirty = true
	case tea.BackgroundColorMsg:
		if m.auto {
			if th, err := themes.ByName("auto", msg.IsDark()); err == nil && th.Name != m.theme.Name {
				m.setTheme(th)
			}
		}
	case tea.FocusMsg:
		cmds = append(cmds, call(m.src.Focus))
	case tea.PasteMsg:
		m.overlay = overlayNone
		cmds = append(cmds, m.focusComposer(), m.comp.update(msg))
		m.dirty = true
	case tea.MouseWheelMsg:
		if m.mouse && m.overlay != overlayNone {
			m.scrollOverlay(msg)
			m.dirty = true
		} else if m.mouse {
			switch msg.Button {
			case tea.MouseWheelUp:
				m.tr.scroll(-3)
			case tea.MouseWheelDown:
				m.tr.scroll(3)
			}
			m.dirty = true
		}
	case tea.MouseClickMsg:
		if m.mouse && msg.Button == tea.MouseLeft && msg.Y == m.height-1 &&
			msg.X >= m.statusClick[0] && msg.X < m.statusClick[1] {
			m.openDiagnostics()
		} else if m.mouse && m.overlay == overlayNone && msg.Button == tea.MouseLeft {
			y := msg.Y - len(m.bannerLines())
			if m.tr.selectAtLine(y) {
				m.focusTranscript()
				m.dirty = true
			}
		}
	case quitExpiredMsg:
		if msg.gen == m.quitGen && m.quitArmed {
			m.quitArmed = false
			m.clearNotice()
		}
	case noticeExpired:
		if msg.gen == m.noticeGen {
			m.clearNotice()
		}
	case clockMsg:
		m.dirty = true
		cmds = append(cmds, m.clockTick())
	case exportedMsg:
		cmds = append(cmds, m.exported(msg))
	case editorReadyMsg:
		cmds = append(cmds, m.runEditor(msg))
	case editorDoneMsg:
		cmds = append(cmds, m.editorDone(msg))
		m.dirty = true
	case searchStepMsg:
		cmds = append(cmds, m.searchStep(msg))
	case copiedMsg:
		m.setNotice("copied "+itoa(msg.n)+" characters (OSC 52)", false)
		cmds = append(cmds, m.expireNotice())
	case tea.KeyPressMsg:
		cmds = append(cmds, m.handleKey(msg))
	default:
		// Cursor blink and other textarea internals.
		if m.focus == focusComposer {
			cmds = append(cmds, m.comp.update(msg))
			m.dirty = true
		}
	}
	if m.dirty {
		cmds = append(cmds, m.refresh())
	}
	return m, tea.Batch(cmds...)
}

// frameDelay is how long to wait before the next frame: FrameInterval, or
// frameLoad times the last frame's cost when that is longer (bounded by
// maxFrameInterval), so that render work stays a bounded share of the CPU
// and input is handled between frames.
func (m *Model) frameDelay() time.Duration {
	d := m.opts.FrameInterval
	if m.opts.Still {
		return d
	}
	return max(d, min(frameLoad*m.frameCost, maxFrameInterval))
}

// pull reads the source's current snapshot into the model.
func (m *Model) pull() {
	snap := m.src.Current()
	m.snap = snap
	m.dirty = true
	if snap.View != nil && (m.view == nil || snap.View != m.view || snap.View.Gen != m.viewGen) {
		m.view, m.viewGen = snap.View, snap.View.Gen
		m.tr.setView(snap.View, snap.HistoryLoading)
		m.tr.reselect()
	} else {
		m.tr.loading = snap.HistoryLoading
	}
	m.endTurnNotice()
	m.diag.observe(snap, m.now())
	m.takeReturned(snap)
}

func (m *Model) setTheme(th themes.Theme) {
	m.theme = th
	m.r.SetTheme(th)
	m.tr.theme = th
	m.tr.pendCache = nil
	m.comp.setTheme(th)
	m.dirty = true
}

// online reports whether the picture is current (live, or catching up on
// a working connection). Offline, nothing on screen pretends a turn is
// progressing: no spinner, no elapsed time.
func (m *Model) online() bool {
	switch m.snap.Freshness.State {
	case sync.Live, sync.Updating, "":
		return true
	}
	return false
}

// animating reports whether something on screen moves with time: a
// running turn (spinner, elapsed time) while online, or a reconnect
// countdown.
func (m *Model) animating() bool {
	if m.opts.Still {
		return false
	}
	if m.turnRunning() && m.online() {
		return true
	}
	return m.snap.Freshness.State == sync.Reconnecting
}

// startTicking schedules the next animation tick when one is needed and
// none is scheduled.
func (m *Model) startTicking() tea.Cmd {
	if m.ticking || !m.animating() {
		return nil
	}
	m.ticking = true
	d := 120 * time.Millisecond
	if !m.turnRunning() || !m.online() {
		d = 500 * time.Millisecond
	}
	return m.after(d, func(time.Time) tea.Msg { return tickMsg{} })
}

func (m *Model) spinner() string {
	if m.opts.Still {
		return spinFrames[0]
	}
	return spinFrames[m.spinIdx%len(spinFrames)]
}

func (m *Model) setNotice(s string, bad bool) {
	m.notice, m.noticeBad, m.noticeTurn = s, bad, ""
	m.noticeGen++
	m.dirty = true
}

// setTurnNotice sets a notice about turnID (approved, interrupting): it
// is cleared when that turn is no longer the active one (noticeOutlived).
func (m *Model) setTurnNotice(s, turnID string) {
	m.setNotice(s, false)
	m.noticeTurn = turnID
}

func (m *Model) clearNotice() {
	m.notice, m.noticeTurn = "", ""
	m.dirty = true
}

// endTurnNotice clears a notice whose turn has ended; an armed ctrl+c
// keeps saying what is still true.
func (m *Model) endTurnNotice() {
	if !noticeOutlived(m.noticeTurn, m.view) {
		return
	}
	m.clearNotice()
	if m.quitArmed {
		m.setNotice("ctrl+c again quits", false)
	}
}

// noticeOutlived reports whether a notice about turnID outlived its turn:
// the view's active turn is another one, or none.
func noticeOutlived(turnID string, v *model.View) bool {
	if turnID == "" || v == nil {
		return false
	}
	return v.ActiveTurn == nil || v.ActiveTurn.TurnID != turnID
}

func (m *Model) expireNotice() tea.Cmd {
	gen := m.noticeGen
	return m.after(4*time.Second, func(time.Time) tea.Msg { return noticeExpired{gen} })
}

// focusComposer gives the composer the keys. The transcript's selection
// goes: the selection marker shows only while the transcript has focus
// (tab selects the bottom visible row again).
func (m *Model) focusComposer() tea.Cmd {
	m.focus = focusComposer
	m.tr.hasSel = false
	m.dirty = true
	return m.comp.focus()
}

func (m *Model) focusTranscript() {
	m.focus = focusTranscript
	m.comp.blur()
	m.dirty = true
}

func (m *Model) bannerLines() []string {
	if m.overlay != overlayNone {
		return nil
	}
	return bannerLines(m.theme, m.km, m.snap, m.now(), m.opts.OfferSessions, m.width)
}

// refresh lays the screen out again and composes the frame. It is the
// only place that renders; it returns a command when reaching the top
// asks for older history.
func (m *Model) refresh() tea.Cmd {
	m.dirty = false
	w, h := max(m.width, 1), max(m.height, 1)
	m.comp.setWidth(w)
	banners := m.bannerLines()
	var approval []string
	if m.overlay == overlayNone {
		approval = approvalLines(m.theme, m.km, m.view, w)
	}
	compH := m.comp.height()
	transH := h - len(banners) - len(approval) - compH - 1
	var body []string
	var cmd tea.Cmd
	switch m.overlay {
	case overlayHelp:
		body, m.overlayOff = pageLines(m.theme, helpTitle(m.theme, m.km), helpBody(m.theme, m.km, w), m.overlayOff, w, h-compH-1)
	case overlayDiagnostics:
		body, m.overlayOff = pageLines(m.theme, diagnosticsTitle(m.theme, m.km, len(m.diag.entries)),
			diagnosticsBody(m.theme, m.diag.entries, m.now(), w), m.overlayOff, w, h-compH-1)
	default:
		m.tr.width, m.tr.height = w, max(transH, 0)
		m.tr.spinner, m.tr.now = "", m.now()
		if m.online() {
			m.tr.spinner = m.spinner()
		}
		m.tr.layout()
		body = m.highlight(m.tr.lines)
		cmd = m.maybeLoadOlder()
	}
	label := m.theme.Muted.Render("prompt ")
	if n := len(m.comp.browse); n > 0 && m.comp.browsing() {
		label = m.theme.Muted.Render("history " + itoa(m.comp.histIdx+1) + "/" + itoa(n) + " ")
	}
	switch {
	case m.confirmQuit:
		label = m.theme.Warning.Bold(true).Render("Discard the draft and quit? y quits · any other key keeps it ")
	case m.focus == focusTranscript:
		// Focus is visible where the user types: the rule says the keys
		// now go to the transcript, and how to get back.
		back := bindingKeys(m.km.Compose) + "/esc"
		what := "▲ transcript focused · " + back + " back to the prompt "
		if !m.comp.empty() {
			what = "▲ transcript focused · draft kept · " + back + " back to it "
		}
		label = m.theme.Accent.Bold(true).Render(what)
	}
	if s := m.searchLabel(); s != "" && !m.confirmQuit {
		label = s
	}
	var status string
	status, m.statusClick = statusLine(m.theme, statusInput{
		view: m.view, snap: m.snap, host: m.opts.Host, sessionID: m.opts.SessionID, now: m.now(),
		spinner: m.spinnerIfActive(), position: m.tr.position(), notice: m.notice, noticeWarn: m.noticeBad,
		mouseOff: !m.mouse, offline: !m.online(),
		diagnostics: len(m.diag.entries), diagErrors: m.diag.errors > 0,
	}, w)
	var b strings.Builder
	for _, l := range banners {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	for _, l := range body {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	for _, l := range approval {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(m.comp.view(m.theme, label))
	b.WriteByte('\n')
	b.WriteString(status)
	m.frame = b.String()
	return cmd
}

func (m *Model) spinnerIfActive() string {
	if m.turnRunning() && m.online() {
		return m.spinner()
	}
	return ""
}

// maybeLoadOlder asks for one older page when the top of the transcript
// is on screen, older history exists, none is loading, and it was not
// already asked for this same oldest row. Because the anchor keeps the
// window in place when the page arrives, loading continues only while the
// content does not fill the screen.
func (m *Model) maybeLoadOlder() tea.Cmd {
	if !m.tr.atTop || m.view == nil || !m.view.HasOlder || m.snap.HistoryLoading {
		return nil
	}
	key := m.tr.oldestKey()
	if key == m.olderAsked {
		return nil
	}
	m.olderAsked = key
	return call(m.src.LoadOlder)
}

// View returns the last composed frame.
func (m *Model) View() tea.View {
	v := tea.NewView(m.frame)
	v.AltScreen = true
	v.ReportFocus = true
	if m.mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = windowTitle(m.view)
	return v
}

// windowTitle is the terminal window's title: "lookout · <session title>".
// The title comes from the host, and the terminal writes it inside an OSC
// sequence, so it is cut to one line with no control character at all
// (termtext.Line): a BEL or ESC in it would end the sequence and start
// another (a clipboard write, say).
func windowTitle(v *model.View) string {
	if v == nil {
		return "lookout"
	}
	if t := termtext.Line(v.Title()); t != "" {
		return "lookout · " + t
	}
	return "lookout"
}
