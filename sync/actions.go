package sync

import (
	"encoding/json"

	"github.com/lookout-sh/lookout/model"
)

// The user's actions on the connection itself: focus and retry. The
// user's commands to the session are commands.go's.

// focus is the terminal regaining focus: the backoff resets; offline, an
// attempt starts at once; connected, the socket is probed, and one that
// does not answer within probeTimeout is redialled.
func (l *loopState) focus() {
	l.bo.Reset()
	if l.link == nil {
		if l.dialCh == nil {
			l.startDial()
		}
		return
	}
	lk := l.link
	if lk.probe.armed() {
		return
	}
	lk.probe.arm(l.clock, probeTimeout)
	l.call("session/list", struct{}{}, func(json.RawMessage, *model.RPCError) {
		// Any answer proves the socket alive.
		lk.probe.stop()
	})
}

// retryNow is the user's retry: the backoff resets and an attempt starts
// at once. Only a refusal (error) is retried as such (retrying, then live
// or error with the new failure); while merely reconnecting or updating it
// changes nothing but the timing, so the banner only gets more accurate.
func (l *loopState) retryNow() {
	l.bo.Reset()
	if l.link != nil && l.link.phase == linkLive {
		return
	}
	l.userRetry = l.refusal != ""
	l.dirty = true
	if l.link == nil && l.dialCh == nil {
		l.startDial()
	}
}

// setLooking records whether the user looks at the session and tells a
// live host that takes session/focus.
func (l *loopState) setLooking(on bool) {
	if l.looking == on {
		return
	}
	l.looking = on
	if l.link != nil && l.link.phase == linkLive {
		l.tellLooking()
	}
}

// tellLooking sends session/focus. What the host answers changes nothing:
// a notice the host sends anyway is the worst of an error.
func (l *loopState) tellLooking() {
	if l.link == nil || !l.link.sessionFocus || l.sessionID == "" {
		return
	}
	l.call("session/focus", map[string]any{"sessionId": l.sessionID, "focused": l.looking}, func(json.RawMessage, *model.RPCError) {})
}
