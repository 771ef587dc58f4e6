package tui

import (
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

// Source is everything the terminal UI needs from a session connection.
// *sync.Client satisfies it; tests drive the UI with a fake whose Views come
// from a real model.State.
//
// Contract: Updates delivers a (coalesced) signal whenever Current may have
// changed and is closed when the source stops. Current is cheap and safe to
// call from any goroutine. The command methods (Submit, Unqueue, Interrupt,
// Respond, Deny, LoadOlder, LoadStart, LoadForward, Retry, Focus, SetLooking) may block briefly; the UI only calls
// them from tea.Cmds, never from Update.
type Source interface {
	Updates() <-chan struct{}
	Current() sync.Picture
	Submit(text string) (commandID string)
	// SubmitCommand submits a turn that runs the agent command name
	// instead of a prompt (Picture.AgentCommands says the host can).
	SubmitCommand(text, name string) (commandID string)
	// Steer sends text into the running turn (Picture.Steer says the
	// host's agent takes it); when it cannot land, it becomes a prompt.
	Steer(text string) (commandID string)
	Unqueue(commandID string)
	Interrupt()
	Respond(approvalID string, decision model.Decision)
	// Deny refuses an approval, telling the agent reason ("" none).
	Deny(approvalID, reason string)
	// AnswerQuestion answers a waiting question item.
	AnswerQuestion(questionID string, answer model.QuestionAnswer)
	LoadOlder()
	// LoadStart asks for the session's first items (Picture.Start) when
	// the View does not reach back to them; LoadForward for the next page
	// below them (docs/sync.md, "Reaching the start").
	LoadStart()
	LoadForward()
	Retry()
	Focus()
	// SetLooking says whether the user looks at the session (the
	// terminal focused, or a key just pressed): a host sends no notice
	// for a session its user looks at.
	SetLooking(on bool)
}

var _ Source = (*sync.Client)(nil)
