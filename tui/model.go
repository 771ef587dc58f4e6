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
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/lookout-sh/lookout/keymap"
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/render"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
	"github.com/lookout-sh/lookout/themes"
)

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
	// (keymap Global.Sessions): the program quits and SwitchSession reports it.
	// Set by `lookout attach`, which shows the picker again.
	OfferSessions bool
	// Draft is the composer's text at start (a draft handed over from the
	// previous session's model, Draft).
	Draft string
	// Serial, when set, is told true once the user only watches a fast
	// stream (frames have slowed to the fast or flood pace, no input for
	// a while) and false at the next key, paste or mouse event. A process
	// that runs nothing but this UI can then run its Go code on one
	// thread while it watches (docs/tui.md, "Where the picture comes from").
	Serial func(on bool)
	// Notify is how to tap the user on the shoulder when the session asks
	// for them (an approval, a failed turn, a long turn's end) while the
	// terminal is not focused (attention.go); NotifyOff, the zero value,
	// never does. NotifyStyleFromEnv picks the terminal's.
	Notify NotifyStyle
}

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
	start   *model.View // the start window shown above the view (hole.go)
	taken   uint64      // highest Returned number taken (composer or failed row)

	failed   []failedPrompt                // prompts the host did not run, shown as rows (failed.go)
	pendSeen map[string]model.PendingEntry // this client's pending prompts in the last View

	tr   *transcript
	srch search // the transcript search (search.go)
	comp composer

	width, height int
	focus         focusArea
	overlay       overlay       // help, diagnostics or the review instead of the transcript
	overlayOff    int           // the overlay's scroll offset
	reviewID      string        // the approval the review shows (review.go)
	reviewRoom    int           // the review's body lines on screen in the last frame
	sight         approvalSight // how much of the first waiting approval was seen
	deny          denyInput     // the reason a deny asks for (denyreason.go)
	slash         slashState    // the slash-command list and its question (slashmenu.go)
	qs            questionState // the waiting question's card (question_card.go)
	planCollapsed bool          // the pinned plan shows one line (plan.go)
	diag          diagLog       // every warning and error seen, for the diagnostics view
	statusClick   [2]int        // the status bar's diagnostics count: cells [from, to)
	mouse         bool

	framePending bool
	frameCost    time.Duration // what the last frame's layout took
	pace         pace          // what the frame interval is decided from (frame.go)
	serial       bool          // what Options.Serial was last told
	shown        []string      // the transcript window's lines in the last frame
	fresh        int           // how many of them the frame before did not show
	ticking      bool
	spinIdx      int
	olderAsked   string // oldest row key when LoadOlder was last called

	goStart      bool   // Home asked for the start window: go to its top when it comes (until another key)
	forwardAsked bool   // LoadForward was called since the last key or scroll
	forwardErrs  uint64 // the source's ErrorCount when it was

	quitArmed     bool
	quitGen       int
	switchSession bool   // the user asked for the session picker
	newAsked      bool   // the user asked for a new session (/new)
	confirmQuit   bool   // "discard the draft and quit?" is asked
	hostURL       string // the URL the source dialled at the last pull
	notice        string
	noticeBad     bool
	noticeGen     int
	noticeTurn    string // the notice is about this turn: it ends with it

	initCmd tea.Cmd // what the first layout asked for (older history)

	stampsChange time.Time // when a stamp in the last frame next reads differently (clock.go)
	att          attention // what the session asked that the user was told of (attention.go)
	notify       notifier  // when and how to tell them
	tapSeq       string    // a notification to write with the next frame
	looking      bool      // what the source was last told of the user looking
	clockAt      time.Time // when the clock's timer rings; zero: none set
	clockLast    time.Time // when the clock last redrew
	clockGen     int       // the timer set last; earlier ones are ignored

	frame string // the last composed screen
	title string // the terminal window title, as of the last pull
	dirty bool

	// after schedules a timer message (tea.Tick; tests replace it).
	after func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
	// listen waits for the source's next change signal (waitUpdate; tests
	// that deliver frames themselves replace it).
	listen func() tea.Cmd
}

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
	m.listen = m.waitUpdate
	m.r = render.New(th)
	m.tr = newTranscript(m.r, th, bindingKeys(m.km.Transcript.TakeBack)+" ("+bindingKeys(m.km.Global.TakeBack)+" anywhere) puts it back in the composer")
	m.comp = newComposer(m.km, th)
	if opts.Draft != "" {
		m.comp.setValue(opts.Draft)
	}
	m.width, m.height = 80, 24
	m.notify.style = opts.Notify
	m.pull()
	m.initCmd = m.refresh()
	return m, nil
}

// Init starts waiting for source updates and, for the auto theme, asks
// the terminal for its background colour.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.listen(), m.startTicking(), m.initCmd, m.scheduleClock()}
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
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg, tea.MouseMsg:
		// Input: frames keep the full rate for a while (frame.go), and
		// the process gets all its threads back before the input's work.
		m.pace.lastInput = time.Now()
		m.setSerial(false)
	}
	switch msg := msg.(type) {
	case updateMsg:
		// The next signal is awaited once the frame has pulled: signals
		// before it are covered by that pull and wait in the source's
		// one-slot channel, so a stream costs a message a frame, not one
		// a delta.
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
		cmds = append(cmds, m.listen(), m.refresh(), m.startTicking(), m.searchOlderArrived(), m.takeTap())
		now := time.Now()
		m.pace.framed(now, m.fresh, len(m.shown))
		m.frameCost = now.Sub(start)
		m.setSerial(m.watchingFastStream(now))
	case tickMsg:
		m.ticking = false
		m.spinIdx++
		// A pending frame shows the spinner's step; no layout of its own.
		m.dirty = m.dirty || !m.framePending
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
		m.notify.blurred = false
		cmds = append(cmds, call(m.src.Focus), m.setLooking(true))
	case tea.BlurMsg:
		m.notify.blurred = true
		cmds = append(cmds, m.setLooking(false))
	case tea.PasteMsg:
		if m.deny.open {
			cmds = append(cmds, m.addDenyText(msg.Content))
			m.dirty = true
			break
		}
		m.closeReview()
		m.overlay = overlayNone
		cmds = append(cmds, m.focusComposer(), m.comp.update(msg))
		m.dirty = true
	case tea.MouseWheelMsg:
		m.forwardAsked, m.goStart = false, false
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
		m.clockRang(msg)
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
		// Any key but home itself (which asks again) gives up a jump to
		// the start still waiting for its window; any key may ask for the
		// next page again after one went wrong.
		m.forwardAsked, m.goStart = false, false
		cmds = append(cmds, m.handleKey(msg), m.setLooking(true))
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
	// The frame may show other stamps now: the clock follows them.
	cmds = append(cmds, m.scheduleClock())
	return m, tea.Batch(cmds...)
}

func (m *Model) setTheme(th themes.Theme) {
	m.theme = th
	m.r.SetTheme(th)
	m.tr.setTheme(th)
	m.comp.setTheme(th)
	m.dirty = true
}

// View returns the last composed frame.
func (m *Model) View() tea.View {
	v := tea.NewView(m.frame)
	v.AltScreen = true
	v.ReportFocus = true
	if m.mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = m.title
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
