package bridge

import "github.com/lookout-sh/lookout/host"

// StateActivity is the session value that says what the agent is doing
// before it can answer (starting its server, resuming its session). A
// client shows it beside the running turn, and only then.
const StateActivity = "activity"

// Activity says, for one turn, what the agent is busy with before its
// first output, so a slow start is not a silent "running 0:04". Each Say
// is one session/state event; Done clears what was said, once.
type Activity struct {
	t    *host.Turn
	said bool
}

// NewActivity is an Activity for turn t; nothing is said yet.
func NewActivity(t *host.Turn) *Activity { return &Activity{t: t} }

// Say replaces what the turn is said to be doing.
func (a *Activity) Say(what string) {
	a.said = true
	_ = a.t.SetState(map[string]any{StateActivity: what})
}

// Done clears the activity if anything was said.
func (a *Activity) Done() {
	if !a.said {
		return
	}
	a.said = false
	_ = a.t.SetState(map[string]any{StateActivity: ""})
}
