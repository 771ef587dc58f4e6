package tui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/lookout-sh/lookout/termtext"
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

// steadyFrameInterval is the frame interval while a stream runs steadily
// and the user is not typing: 20 frames a second. The text still moves
// smoothly, and a key repaints at once whatever the pace.
const steadyFrameInterval = 50 * time.Millisecond

// fastFrameInterval is the frame interval once a stream has scrolled
// faster than anyone reads for fastStreamAfter: 10 frames a second. Each
// frame then brings several new lines anyway, and the terminal writer's
// and the unfinished block's cost is paid half as often.
const fastFrameInterval = 100 * time.Millisecond

// floodFrameInterval is the frame interval once a fast stream has, for
// fastStreamAfter, replaced half the window or more with every frame
// (about 180 lines a second at the fast rate; a model writes ten or so):
// 5 frames a second. Nobody reads a window that turns over ten times a
// second; at five each one stays long enough to glimpse, and laying out
// and writing the frames costs half as much. Tool output and pastes get
// there, a model's answer does not.
const floodFrameInterval = 200 * time.Millisecond

// fastStreamLines is how many lines new to the screen make a frame part
// of a fast stream: 3 in a frame is 60 lines a second at the steady rate,
// 30 at the fast one (the pace does not flap at the boundary).
const fastStreamLines = 3

// fastStreamAfter is how long a stream must be fast before frames slow
// down, so that a short burst ends on screen at the full rate.
const fastStreamAfter = time.Second

// inputQuiet is how long after a key or a wheel step frames keep the
// full rate.
const inputQuiet = time.Second

// pace is what the frame interval is decided from: when the last frame
// was laid out, when the user last typed or scrolled, since when every
// frame of a steady stream has brought fastStreamLines new lines or more,
// and since when every one has also replaced half the window or more
// (zero: the last one did not).
type pace struct {
	lastFrame, lastInput, fastSince, floodSince time.Time
}

// frameDelay is how long to wait before the next frame: the interval the
// pace gives, or frameLoad times the last frame's cost when that is longer
// (bounded by maxFrameInterval), so that render work stays a bounded share
// of the CPU and input is handled between frames.
func (m *Model) frameDelay() time.Duration {
	d := m.opts.FrameInterval
	if m.opts.Still {
		return d
	}
	d = frameInterval(time.Now(), m.pace, d)
	return max(d, min(frameLoad*m.frameCost, maxFrameInterval))
}

// frameInterval is base, steadyFrameInterval while a stream runs steadily,
// fastFrameInterval once it has also been fast for fastStreamAfter, and
// floodFrameInterval once it has flooded the window for as long.
func frameInterval(now time.Time, p pace, base time.Duration) time.Duration {
	switch {
	case !steadyStream(now, p.lastFrame, p.lastInput, base):
		return base
	case !watching(now, p, base):
		return max(base, steadyFrameInterval)
	case !p.floodSince.IsZero() && now.Sub(p.floodSince) >= fastStreamAfter:
		return max(base, floodFrameInterval)
	}
	return max(base, fastFrameInterval)
}

// steadyStream reports whether changes arrive steadily with no input
// lately: the last frame was at most two intervals ago (one frame
// followed the one before without a pause) and the last key or wheel
// step at least inputQuiet ago. The first change after a pause is drawn
// at the full rate.
func steadyStream(now, lastFrame, lastInput time.Time, interval time.Duration) bool {
	return !lastFrame.IsZero() && now.Sub(lastFrame) <= 2*interval && now.Sub(lastInput) >= inputQuiet
}

// framed records a frame laid out at now whose transcript window of
// height lines brought fresh lines new to the screen. A stream stays fast
// (or flooding) while its frames follow each other at the slowest pace,
// so that slowing down to it does not start the count over.
func (p *pace) framed(now time.Time, fresh, height int) {
	goesOn := steadyStream(now, p.lastFrame, p.lastInput, floodFrameInterval)
	switch {
	case fresh < fastStreamLines:
		p.fastSince = time.Time{}
	case p.fastSince.IsZero() || !goesOn:
		p.fastSince = now
	}
	switch {
	case p.fastSince.IsZero() || 2*fresh < height:
		p.floodSince = time.Time{}
	case p.floodSince.IsZero() || !goesOn:
		p.floodSince = now
	}
	p.lastFrame = now
}

// watching reports whether frames are at the fast or flood pace: a
// steady stream has scrolled faster than anyone reads for
// fastStreamAfter, and the user has not typed or scrolled for inputQuiet
// (a flood is always fast too).
func watching(now time.Time, p pace, base time.Duration) bool {
	return steadyStream(now, p.lastFrame, p.lastInput, base) && !p.fastSince.IsZero() && now.Sub(p.fastSince) >= fastStreamAfter
}

// watchingFastStream is watching for the model's pace.
func (m *Model) watchingFastStream(now time.Time) bool {
	return !m.opts.Still && watching(now, m.pace, m.opts.FrameInterval)
}

// setSerial tells Options.Serial when watching starts or stops.
func (m *Model) setSerial(on bool) {
	if m.opts.Serial == nil || on == m.serial {
		return
	}
	m.serial = on
	m.opts.Serial(on)
}

// freshLines counts the lines of cur that prev did not show: how far a
// followed stream scrolled the window, or how much of it changed.
func freshLines(prev, cur []string) int {
	seen := make(map[string]struct{}, len(prev))
	for _, l := range prev {
		seen[l] = struct{}{}
	}
	n := 0
	for _, l := range cur {
		if _, ok := seen[l]; !ok {
			n++
		}
	}
	return n
}

// pull reads the source's current snapshot into the model.
func (m *Model) pull() {
	snap := m.src.Current()
	m.snap = snap
	m.dirty = true
	if snap.View != nil && (m.view == nil || snap.View != m.view || snap.View.Gen != m.viewGen || snap.Start != m.start) {
		m.view, m.viewGen, m.start = snap.View, snap.View.Gen, snap.Start
		m.tr.setView(snap.View, snap.Start, snap.HistoryLoading)
	} else {
		m.tr.setLoading(snap.HistoryLoading)
	}
	// View runs after every message; the title is decoded once a pull.
	m.title = windowTitle(m.view)
	m.tr.setHoleLoading(snap.StartLoading)
	m.startArrived()
	m.endTurnNotice()
	m.diag.observe(snap, m.now())
	m.takeReturned(snap)
	m.observeHost(snap.HostURL)
	m.approvalChanged()
	if taps := m.att.observe(m.view, m.now()); len(taps) > 0 {
		if seq := m.notify.sequence(taps, termtext.Line(m.view.Title()), m.now()); seq != "" {
			m.tapSeq = seq
		}
	}
}

// takeTap writes the notification pull decided on, if any.
func (m *Model) takeTap() tea.Cmd {
	if m.tapSeq == "" {
		return nil
	}
	seq := m.tapSeq
	m.tapSeq = ""
	return tea.Raw(seq)
}

// refresh lays the screen out again and composes the frame. It is the
// only place that renders; it returns a command when reaching the top
// asks for older history.
func (m *Model) refresh() tea.Cmd {
	m.dirty = false
	w, h := max(m.width, 1), max(m.height, 1)
	m.comp.setWidth(w)
	banners := m.bannerLines()
	var approval, plan []string
	if m.overlay == overlayNone || m.overlay == overlayReview {
		approval = approvalLines(m.theme, m.km, approvalBar{view: m.view, answers: m.snap.Answers, deny: m.deny}, w)
		if it := m.currentQuestion(); it != nil {
			approval = append(approval, questionLines(m.theme, it, m.qs.in, m.questionHasKeys() != nil, bindingKeys(m.km.Global.Question), w)...)
		}
		plan = m.planLines(w, len(approval) > 0)
	}
	compH := m.comp.height()
	notice, noticeLines := m.statusNotice(w)
	transH := h - len(banners) - len(plan) - len(approval) - compH - 1 - len(noticeLines)
	menu := m.slashMenuLines(w, transH-minTranscriptRows)
	transH -= len(menu)
	var body []string
	var cmd tea.Cmd
	m.fresh = 0
	m.stampsChange = time.Time{} // the overlays show no relative times
	switch m.overlay {
	case overlayHelp:
		body, m.overlayOff = pageLines(m.theme, helpTitle(m.theme, m.km), helpBody(m.theme, m.km, w), m.overlayOff, w, h-compH-1)
	case overlayStatus:
		body, m.overlayOff = pageLines(m.theme, statusTitle(m.theme, m.km), statusBody(m.theme, statusFacts(m.view, m.opts.Host), w),
			m.overlayOff, w, h-compH-1-len(menu))
	case overlayDiagnostics:
		body, m.overlayOff = pageLines(m.theme, diagnosticsTitle(m.theme, m.km, len(m.diag.entries)),
			diagnosticsBody(m.theme, m.diag.entries, m.now(), w), m.overlayOff, w, h-compH-1)
	case overlayReview:
		body = m.layReview(w, max(transH, 0))
	default:
		spinner := ""
		if m.online() {
			spinner = m.spinner()
		}
		body = m.highlight(m.tr.layout(w, max(transH, 0), spinner, m.now()))
		m.stampsChange = m.tr.stampsChange
		m.sawApprovalInPlace(w)
		m.fresh = freshLines(m.shown, body)
		m.shown = append(m.shown[:0], body...)
		cmd = tea.Batch(m.maybeLoadOlder(), m.maybeLoadForward())
	}
	label := m.theme.Muted.Render("prompt ")
	if i, n, ok := m.comp.historyPosition(); ok {
		label = m.theme.Muted.Render("history " + itoa(i+1) + "/" + itoa(n) + " ")
	}
	switch {
	case m.confirmQuit:
		label = m.theme.Warning.Bold(true).Render(quitQuestion(!m.comp.empty(), m.unsentPrompts()))
	case m.questionHasKeys() != nil:
		label = m.theme.Warning.Bold(true).Render("▲ the question has the keys · esc lets it wait ")
	case m.asking():
		label = m.theme.Warning.Bold(true).Render(m.slashQuestion())
	case m.focus == focusTranscript:
		// Focus is visible where the user types: the rule says the keys
		// now go to the transcript, and how to get back.
		back := bindingKeys(m.km.Transcript.Compose) + "/esc"
		what := "▲ transcript focused · " + back + " back to the prompt "
		if !m.comp.empty() {
			what = "▲ transcript focused · draft kept · " + back + " back to it "
		}
		label = m.theme.Accent.Bold(true).Render(what)
	}
	if s := m.searchLabel(); s != "" && !m.confirmQuit && !m.asking() {
		label = s
	}
	var status string
	status, m.statusClick = statusLine(m.theme, statusInput{
		view: m.view, snap: m.snap, host: m.opts.Host, sessionID: m.opts.SessionID, now: m.now(),
		spinner: m.spinnerIfActive(), position: m.tr.position(), notice: notice, noticeWarn: m.noticeBad,
		mouseOff: !m.mouse, offline: !m.online(),
		diagnostics: len(m.diag.entries), diagErrors: m.diag.errors > 0,
	}, w)
	var b strings.Builder
	b.Grow(len(m.frame) + len(m.frame)/4) // about the last frame's size: no regrowth
	for _, l := range banners {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	for _, l := range body {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	for _, l := range plan {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	for _, l := range approval {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	for _, l := range menu {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(m.comp.view(m.theme, label))
	b.WriteByte('\n')
	for _, l := range noticeLines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(status)
	m.frame = b.String()
	return cmd
}

func (m *Model) bannerLines() []string {
	if m.overlay != overlayNone {
		return nil
	}
	return bannerLines(m.theme, m.km, m.snap, m.now(), m.opts.OfferSessions, m.width)
}

// maybeLoadOlder asks for one older page when the top of the transcript
// is on screen, older history exists, none is loading, and it was not
// already asked for this same oldest row. Because the anchor keeps the
// window in place when the page arrives, loading continues only while the
// content does not fill the screen. A start window above the view begins
// at the session's start: nothing older to load.
func (m *Model) maybeLoadOlder() tea.Cmd {
	if !m.tr.showsTop() || !m.tr.olderAvailable() || m.snap.HistoryLoading {
		return nil
	}
	key := m.tr.oldestKey()
	if key == m.olderAsked {
		return nil
	}
	m.olderAsked = key
	return call(m.src.LoadOlder)
}
