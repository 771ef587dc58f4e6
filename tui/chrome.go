package tui

import (
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/keymap"
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
	"github.com/lookout-sh/lookout/themes"
)

func itoa(n int) string { return strconv.Itoa(n) }

func lipglossWidth(s string) int { return ansi.StringWidth(s) }

// approvalBar is what the approval bar is drawn from.
type approvalBar struct {
	view    *model.View
	answers []sync.Answer // answers given here the host has not confirmed
	deny    denyInput     // the reason being typed for a deny
}

// approvalHead is the bar's first line before fitting: what needs
// approval, and its summary (one line, controls as glyphs).
func approvalHead(t themes.Theme, v *model.View) string {
	a := v.Approvals[0]
	head := "⚠ Approval needed"
	if it := v.ItemByID(a.ItemID); it != nil {
		head += ": " + approvalTool(it)
	}
	if n := len(v.Approvals); n > 1 {
		head += " (1 of " + itoa(n) + ")"
	}
	summary := termtext.VisibleLine(strings.TrimSpace(a.Summary))
	if summary == "" {
		summary = "(no summary)"
	}
	return t.Warning.Render(head) + t.Muted.Render(" · ") + t.Text.Render(summary)
}

// maxHeadLines bounds the lines the bar gives the summary; a longer one
// is cut there, and the review shows it whole.
const maxHeadLines = 2

// headLines wraps the bar's head to width, at most maxHeadLines of it;
// whole is false when it was cut.
func headLines(head string, width int) (lines []string, whole bool) {
	lines = strings.Split(ansi.Wrap(head, max(width, 1), ""), "\n")
	if len(lines) <= maxHeadLines {
		return lines, true
	}
	lines = lines[:maxHeadLines]
	last := lines[maxHeadLines-1]
	lines[maxHeadLines-1] = ansi.Truncate(last, max(width-1, 1), "") + "…"
	return lines, false
}

// approvalSummaryFits reports whether the bar shows the first approval's
// summary whole at width.
func approvalSummaryFits(t themes.Theme, v *model.View, width int) bool {
	if v == nil || len(v.Approvals) == 0 {
		return false
	}
	_, whole := headLines(approvalHead(t, v), width)
	return whole
}

// approvalLines renders the approval prompt bar for the first waiting
// approval, or nothing: what needs approval and its summary (on up to
// maxHeadLines lines), then the keys, wrapped so that none is cut. The
// summary shows controls as glyphs (termtext.VisibleLine), so nothing in
// it can hide the rest; one too long for the bar is shown whole by the
// review (review.go) before an approve key acts. An answer given here that waits for the connection is
// said instead of the keys: the tool still waits. While a deny's reason is
// typed, the bar shows it (denyLines).
func approvalLines(t themes.Theme, km keymap.KeyMap, in approvalBar, width int) []string {
	v := in.view
	if v == nil || len(v.Approvals) == 0 {
		return nil
	}
	a := v.Approvals[0]
	hl, _ := headLines(approvalHead(t, v), width)
	var out []string
	for _, l := range hl {
		out = append(out, fit(l, width))
	}
	if owed, ok := owedAnswer(in.answers, a.ApprovalID); ok && !owed.Sent {
		return append(out, fit("  "+t.Muted.Render(notSentYet(owed.Decision)), width))
	}
	if in.deny.open && in.deny.approvalID == a.ApprovalID {
		return append(out, denyLines(t, in.deny.text, width)...)
	}
	key := func(b key.Binding, what string) string {
		return t.StatusKey.Render(b.Help().Key) + t.Muted.Render(" "+what)
	}
	hints := []string{key(km.Global.Approve, "approve")}
	inTranscript := "a/d"
	if a.Offers(model.DecisionApproveForSession) {
		hints = append(hints, key(km.Global.ApproveAll, "approve for the session"))
		inTranscript = "a/s/d"
	}
	hints = append(hints, key(km.Global.Deny, "deny (+ reason)"), t.Muted.Render("("+inTranscript+" in the transcript)"))
	for _, l := range packHints(hints, "  ", "  ", width) {
		out = append(out, fit(l, width))
	}
	return out
}

// packHints lays hints out on as few lines of width as they fit, each
// line starting with indent and hints separated by sep; a hint wider
// than a line gets a line of its own (and is cut there by the caller).
func packHints(hints []string, indent, sep string, width int) []string {
	var out []string
	line, lw := "", 0
	for _, h := range hints {
		hw := ansi.StringWidth(h)
		switch {
		case line == "":
			line, lw = indent+h, len(indent)+hw
		case lw+len(sep)+hw <= width:
			line, lw = line+sep+h, lw+len(sep)+hw
		default:
			out = append(out, line)
			line, lw = indent+h, len(indent)+hw
		}
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// statusInput is what the status bar shows.
type statusInput struct {
	view       *model.View
	snap       sync.Picture
	host       string
	sessionID  string
	now        time.Time
	spinner    string
	position   string
	notice     string
	noticeWarn bool
	mouseOff   bool
	offline    bool // the picture is not current: a running turn is only "when last seen"
	// diagnostics counts the diagnostics log; diagErrors: some are errors.
	diagnostics int
	diagErrors  bool
}

// statusLine renders the one-line status bar. Every text in it that may
// come from the host (title, warnings, turn errors) is one clean line
// (termtext.Line). It also returns the cells [from, to) of the
// diagnostics count, which a click opens ({0, 0} when not shown).
func statusLine(t themes.Theme, in statusInput, width int) (string, [2]int) {
	sep := t.Muted.Render(" · ")
	var left []string
	title := ""
	if in.view != nil {
		title = in.view.Title()
	}
	title = termtext.Line(title)
	if title == "" {
		title = termtext.Line(in.sessionID)
	}
	if title == "" {
		title = "no session"
	}
	if in.notice != "" {
		// A notice is short-lived and says what a key just did or needs:
		// the title gives it room.
		title = ansi.Truncate(title, max(12, width/4), "…")
	}
	left = append(left, t.StatusKey.Render(title))
	if in.notice != "" {
		st := t.Accent
		if in.noticeWarn {
			st = t.Warning
		}
		left = append(left, st.Render(termtext.Line(in.notice)))
	}
	left = append(left, turnState(t, in))
	if in.snap.Durability == "ephemeral" {
		left = append(left, t.Warning.Render("ephemeral host"))
	}
	// The diagnostics count (it opens the view) before the newest warning,
	// which is cut short: the view has it whole.
	diagAt := -1
	if c := diagnosticsCount(in.diagnostics); c != "" {
		st := t.Warning
		if in.diagErrors {
			st = t.Error
		}
		diagAt = len(left)
		left = append(left, st.Render(c))
	}
	if in.view != nil && len(in.view.Warnings) > 0 {
		w := in.view.Warnings[len(in.view.Warnings)-1]
		left = append(left, t.Warning.Render(ansi.Truncate(termtext.Line(warningText(w)), 48, "…")))
	}
	if u := sessionUsage(in.view); u != "" {
		left = append(left, t.Muted.Render(u))
	}
	if in.host != "" {
		left = append(left, t.Muted.Render(termtext.Line(in.host)))
	}
	var right []string
	if in.position != "" {
		right = append(right, t.Muted.Render(in.position))
	}
	if in.mouseOff {
		right = append(right, t.Warning.Render("mouse released"))
	}
	right = append(right, t.StatusKey.Render("?")+t.Muted.Render(" keys"))
	l := strings.Join(left, sep)
	r := strings.Join(right, sep)
	lw, rw := ansi.StringWidth(l), ansi.StringWidth(r)
	if lw+rw+1 > width {
		l = ansi.Truncate(l, max(0, width-rw-1), "…")
		lw = ansi.StringWidth(l)
	}
	gap := max(1, width-lw-rw)
	var click [2]int
	if diagAt >= 0 {
		from := ansi.StringWidth(strings.Join(left[:diagAt], sep))
		if diagAt > 0 {
			from += ansi.StringWidth(sep)
		}
		click = [2]int{min(from, lw), min(from+ansi.StringWidth(left[diagAt]), lw)}
	}
	return fit(padBefore(l, lw+gap)+r, width), click
}

func turnState(t themes.Theme, in statusInput) string {
	v := in.view
	if v == nil {
		return t.Muted.Render("—")
	}
	queued := ""
	if n := len(v.QueuedTurns); n > 0 {
		queued = " · " + itoa(n) + " queued"
	}
	if a := v.ActiveTurn; a != nil && in.offline {
		// No spinner, no elapsed time: neither is known to go on.
		return t.Warning.Render("running when last seen") + t.Muted.Render(queued)
	}
	if a := v.ActiveTurn; a != nil {
		s := "running"
		if ts, err := time.Parse(time.RFC3339Nano, a.StartedAt); err == nil {
			s += " " + elapsed(in.now.Sub(ts))
		}
		if in.spinner != "" {
			s = in.spinner + " " + s
		}
		// What the agent is busy with before it answers (bridge.Activity).
		if act := termtext.Line(v.StringValue("activity")); act != "" {
			s += " · " + act
		}
		return t.Accent.Render(s) + t.Muted.Render(queued)
	}
	if lt := v.LastTurn; lt != nil && lt.Status != "" && lt.Status != model.StatusCompleted && lt.Status != "unqueued" {
		s := "last turn " + lt.Status
		if lt.Error != nil && lt.Error.Message != "" {
			s += ": " + lt.Error.Message
		}
		return t.Warning.Render(termtext.Line(s)) + t.Muted.Render(queued)
	}
	return t.Success.Render("idle") + t.Muted.Render(queued)
}

// elapsed formats a duration as m:ss or h:mm:ss.
func elapsed(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int(d / time.Second)
	h, m, sec := s/3600, (s/60)%60, s%60
	pad := func(n int) string {
		if n < 10 {
			return "0" + itoa(n)
		}
		return itoa(n)
	}
	if h > 0 {
		return itoa(h) + ":" + pad(m) + ":" + pad(sec)
	}
	return itoa(m) + ":" + pad(sec)
}

func warningText(w model.Warning) string {
	s := w.Message
	if s == "" {
		s = w.Code
	}
	if w.RequestKind != "" {
		s = w.RequestKind + ": " + s
	}
	if w.WillRetry {
		s += " · retrying"
		if w.Attempt > 0 {
			s += " (" + itoa(w.Attempt)
			if w.MaxAttempts > 0 {
				s += "/" + itoa(w.MaxAttempts)
			}
			s += ")"
		}
	}
	return s
}

// bindingKeys lists a binding's keys for notices ("alt+a").
func bindingKeys(b key.Binding) string { return b.Help().Key }
