package tui

import (
	"math"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/keymap"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
	"github.com/lookout-sh/lookout/themes"
)

// bannerText is one freshness banner before layout: the state (with its
// countdown), the detail (the last error; it may be long) after sep, and
// the key hint.
type bannerText struct {
	head, sep, detail, hint string
}

// fit lays the banner out on one line of at most width cells. What
// matters most survives a narrow screen: the detail gives way first (cut
// with …), then the hint (whole or not at all), and the head last.
func (b bannerText) fit(width int) string {
	hint := ""
	if b.hint != "" {
		hint = " · " + b.hint
	}
	head := " " + b.head
	room := width - ansi.StringWidth(head) - ansi.StringWidth(hint)
	if b.detail != "" {
		full := b.sep + b.detail
		switch {
		case ansi.StringWidth(full) <= room:
			return head + full + hint
		case room >= ansi.StringWidth(b.sep)+4:
			return head + ansi.Truncate(full, room, "…") + hint
		}
	}
	if room >= 0 {
		return head + hint
	}
	if ansi.StringWidth(head) <= width {
		return head
	}
	return ansi.Truncate(head, width, "…")
}

// bannerFor is the freshness banner's text and style for snap, or false
// when live. Error texts may quote the host: one clean line
// (termtext.Line). No banner shows an error it does not have ("unknown").
func bannerFor(t themes.Theme, km keymap.KeyMap, snap sync.Picture, now time.Time, offerSessions bool) (bannerText, lipgloss.Style, bool) {
	f := snap.Freshness
	retry := km.Global.Retry.Help().Key
	var b bannerText
	var style lipgloss.Style
	switch f.State {
	case sync.Live, "":
		return b, style, false
	case sync.Connecting:
		style, b.head = t.BannerInfo, "◌ Connecting to host…"
	case sync.Reconnecting:
		style, b.head = t.BannerWarn, "⟳ Reconnecting to host"
		if d := f.NextAttempt.Sub(now); !f.NextAttempt.IsZero() && d > 0 {
			b.head += " · next attempt in " + itoa(int(math.Ceil(d.Seconds()))) + "s"
			b.hint = retry + " retries now"
		} else {
			b.head += " · trying now"
		}
		if f.Attempt > 0 {
			b.head += " (attempt " + itoa(f.Attempt) + ")"
		}
		b.sep, b.detail = " · ", termtext.Line(f.Err)
	case sync.Updating:
		style, b.head = t.BannerInfo, "↻ Updating messages…"
	case sync.Error:
		style, b.head = t.BannerError, "✗ Sync error"
		b.sep, b.detail, b.hint = ": ", termtext.Line(f.Err), retry+" to retry"
		if f.Reason == sync.ReasonNoSession {
			// Final: nothing retries by itself; offer the way out.
			b.head = "✗ Session not found"
			if offerSessions {
				b.hint = km.Global.Sessions.Help().Key + " choose another session"
			}
		}
	case sync.Retrying:
		style = t.BannerInfo
		if b.detail = termtext.Line(f.Err); b.detail == "" {
			b.head = "↻ Retrying…"
		} else {
			b.head, b.sep, b.hint = "↻ Sync error", ": ", "retrying…"
		}
	default:
		style, b.head = t.BannerInfo, termtext.Line(string(f.State))
	}
	if snap.CachePainted {
		b.head += " · showing the cached copy"
	}
	return b, style, true
}

// bannerLines renders the freshness banner (zero or one line) from the
// sync snapshot. Cached history stays on screen below it. offerSessions:
// the program can go back to a session picker (an unknown session's
// banner offers it).
func bannerLines(t themes.Theme, km keymap.KeyMap, snap sync.Picture, now time.Time, offerSessions bool, width int) []string {
	b, style, ok := bannerFor(t, km, snap, now, offerSessions)
	if !ok {
		return nil
	}
	return []string{style.Render(fit(b.fit(width), width))}
}
