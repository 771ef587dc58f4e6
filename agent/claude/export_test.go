package claude

// ProcessID is the pid of the Claude Code running sessionID, 0 when none
// runs. Tests use it to kill Claude Code mid-turn.
func (a *Agent) ProcessID(sessionID string) int {
	if s, _ := a.sessions.Get(sessionID); s != nil {
		return s.p.Pid()
	}
	return 0
}
