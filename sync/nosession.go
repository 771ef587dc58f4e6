package sync

import "github.com/lookout-sh/lookout/model"

// A session the host does not know (or a host with no session at all) is
// a final state: no background retry is scheduled (only the user's Retry
// asks again), and every pending prompt gives its text back (retired
// gaveUp) instead of showing "sending" or "retrying" for ever.

// finalRefusal reports whether a refusal of this reason ends background
// retries.
func finalRefusal(reason string) bool { return reason == ReasonNoSession }

// giveBackAll retires every pending entry as gaveUp with why: their texts
// return to the composer, each once (Picture.Returned).
func (l *loopState) giveBackAll(why string) {
	for _, p := range l.st.Pending() {
		if l.st.Retire(p.CommandID, model.RetiredGaveUp, why) {
			l.dirty = true
		}
	}
}

// sessionGone reports whether the client knows its session is missing
// and no attempt is under way: a prompt submitted now has nowhere to go.
func (l *loopState) sessionGone() bool {
	return finalRefusal(l.refusalReason) && l.refusal != "" && l.link == nil && l.dialCh == nil
}

// sessionMissing ends the link with the final refusal why (the host does
// not know the session, or has none): every pending prompt gives its text
// back first.
func (l *loopState) sessionMissing(why string) {
	l.giveBackAll(why)
	l.dropLink(&linkError{Persistent: true, Reason: ReasonNoSession, Msg: why})
}
