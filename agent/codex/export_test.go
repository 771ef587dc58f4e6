package codex

// ProcessID is the pid of the app-server running sessionID's thread, 0
// when none runs. Tests use it to kill Codex mid-turn.
func (a *Agent) ProcessID(sessionID string) int {
	if th, _ := a.threads.Get(sessionID); th != nil {
		return th.p.Pid()
	}
	return 0
}
