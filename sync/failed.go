package sync

import "github.com/lookout-sh/lookout/model"

// GivesBack reports whether a retirement of this reason is published in
// Picture.Returned: its text is the user's to take back. Unqueued and
// gave-up prompts go straight back to the composer
// (RetireReason.ReturnsText); a rejected prompt, or one whose turn failed
// to launch, is shown as a failed entry the user can take back.
func GivesBack(r model.RetireReason) bool {
	return r.ReturnsText() || r == model.RetiredLaunchFailed || r == model.RetiredRejected
}

// turnErrorText is a failed turn's error for a message: "message", else
// the code.
func turnErrorText(e *model.TurnError) string {
	switch {
	case e == nil:
		return ""
	case e.Message != "":
		return e.Message
	}
	return e.Code
}

// pendingOfTurn lists the pending entries of turnID (those a failed
// turn/completed may retire as launchFailed).
func (l *loopState) pendingOfTurn(turnID string) []string {
	var out []string
	for _, p := range l.st.Pending() {
		if p.TurnID == turnID {
			out = append(out, p.CommandID)
		}
	}
	return out
}

// noteLaunch records why cid's turn failed to launch (a failed turn that
// never started), for its retirement's Detail.
func (l *loopState) noteLaunch(cid, turnID string) {
	t := l.st.Turn(turnID)
	if t == nil || t.Started || t.Status != model.StatusFailed {
		return
	}
	if l.launchWhy == nil {
		l.launchWhy = map[string]string{}
	}
	l.launchWhy[cid] = turnErrorText(t.Error)
}

// launchDetail fills a launch failure's Detail from what noteLaunch
// recorded.
func (l *loopState) launchDetail(r *model.Retirement) {
	why, ok := l.launchWhy[r.CommandID]
	if !ok {
		return
	}
	delete(l.launchWhy, r.CommandID)
	if r.Reason == model.RetiredLaunchFailed && r.Detail == "" {
		r.Detail = why
	}
}
