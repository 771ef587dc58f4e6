package tui

// Typing must never act on the transcript by surprise. These are the pure
// decisions that keep a draft and a waiting approval safe from keys that
// were meant as text (tab moves focus to the transcript, whose single
// letters are commands).

// gate is what a single-letter transcript command does given the draft.
type gate int

const (
	gateAct     gate = iota // act at once
	gateRefuse              // do nothing; say which deliberate key does it
	gateConfirm             // ask first (y confirms, any other key cancels)
)

func (g gate) String() string {
	switch g {
	case gateAct:
		return "act"
	case gateRefuse:
		return "refuse"
	}
	return "confirm"
}

// draftGate decides a transcript letter's fate while the composer holds a
// draft (draft true): approving, denying and unqueueing letters are
// refused (their alt+ forms, a deliberate chord, still work), quitting
// asks before the draft is discarded; everything else (moving, copying,
// expanding) acts. Without a draft every letter acts.
func draftGate(action string, draft bool) gate {
	if !draft {
		return gateAct
	}
	switch action {
	case "quit":
		return gateConfirm
	case "approve", "deny", "approveForSession", "unqueue":
		return gateRefuse
	}
	return gateAct
}

// ctrlCAction is what one ctrl+c does.
type ctrlCAction int

const (
	ctrlCArm       ctrlCAction = iota // nothing to stop or clear: the next ctrl+c quits
	ctrlCInterrupt                    // interrupt the running turn (and arm)
	ctrlCClear                        // clear the draft into history (and arm)
	ctrlCQuit                         // quit
)

func (a ctrlCAction) String() string {
	return [...]string{"arm", "interrupt", "clear", "quit"}[a]
}

// ctrlCStep is ctrl+c's ladder: interrupt a running turn first (unless
// already armed), then clear a draft (kept in history: up brings it back),
// and quit only when armed with nothing left to lose. So a draft is never
// lost by quitting, whatever has focus. A prompt the host has not taken
// yet does not stop the ladder (it cannot be cleared), but arming says it
// would be lost (ctrlCNotice).
func ctrlCStep(armed, turnRunning, draft bool) ctrlCAction {
	switch {
	case turnRunning && !armed:
		return ctrlCInterrupt
	case draft:
		return ctrlCClear
	case armed:
		return ctrlCQuit
	}
	return ctrlCArm
}

// ctrlCNotice is what the status bar says after a ctrl+c that did done
// (ctrlCArm: nothing, or a notice said again), when the next ctrl+c will
// do next (ctrlCStep with armed true, on what is left). It names the next
// press truthfully: with a draft waiting that is clearing it, not quitting.
func ctrlCNotice(done, next ctrlCAction, unsent int) string {
	then := "ctrl+c again quits"
	if unsent > 0 {
		then = "ctrl+c again quits and drops " + unsentWords(unsent)
	}
	switch next {
	case ctrlCClear:
		then = "ctrl+c again clears the draft"
	case ctrlCInterrupt:
		then = "ctrl+c again interrupts"
	}
	switch done {
	case ctrlCInterrupt:
		return "interrupting · " + then
	case ctrlCClear:
		return "draft cleared (↑ in the composer brings it back) · " + then
	}
	return then
}

// unsentWords names the prompts the host has not taken yet: quitting now
// loses them, so every quit path says so before it acts.
func unsentWords(n int) string {
	if n == 1 {
		return "1 prompt not sent yet"
	}
	return itoa(n) + " prompts not sent yet"
}

// quitQuestion is what q asks before quitting with something to lose: the
// draft, prompts the host has not taken, or both.
func quitQuestion(draft bool, unsent int) string {
	switch {
	case draft && unsent > 0:
		return "Discard the draft and " + unsentWords(unsent) + ", and quit? y quits · any other key keeps them "
	case unsent > 0:
		return "Quit and drop " + unsentWords(unsent) + "? y quits · any other key stays "
	}
	return "Discard the draft and quit? y quits · any other key keeps it "
}
