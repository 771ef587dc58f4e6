package model

// toolNext lists the statuses a toolCall may move to from each status
// (seed 001): inputStreaming -> ready -> waitingUser -> running ->
// completed | failed; ready -> running without approval; inputStreaming ->
// failed when its input is not valid JSON. A denied approval or an
// interrupted turn also ends a waiting or running tool as failed or
// stopped, and any open tool can be stopped.
var toolNext = map[string][]string{
	"":                   {StatusInputStreaming, StatusReady, StatusWaitingUser, StatusRunning, StatusInProgress, StatusCompleted, StatusFailed, StatusStopped},
	StatusInProgress:     {StatusInputStreaming, StatusReady, StatusWaitingUser, StatusRunning, StatusCompleted, StatusFailed, StatusStopped},
	StatusInputStreaming: {StatusReady, StatusFailed, StatusStopped},
	StatusReady:          {StatusWaitingUser, StatusRunning, StatusFailed, StatusStopped},
	StatusWaitingUser:    {StatusRunning, StatusFailed, StatusStopped},
	StatusRunning:        {StatusCompleted, StatusFailed, StatusStopped},
}

// ValidToolTransition reports whether a toolCall may move from one status
// to another. Staying in the same status (a higher revision with new
// content) is always valid.
func ValidToolTransition(from, to string) bool {
	if from == to {
		return true
	}
	for _, s := range toolNext[from] {
		if s == to {
			return true
		}
	}
	return false
}
