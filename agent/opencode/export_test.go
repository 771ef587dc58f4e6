package opencode

import "time"

// ProcessID is the pid of the opencode server the bridge started, 0 when
// none runs. Tests use it to kill OpenCode mid-turn.
func (a *Agent) ProcessID() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.srv != nil && a.srv.p != nil && a.srv.alive() {
		return a.srv.p.Pid()
	}
	return 0
}

// SetStartCheckDelay shortens the wait before a turn OpenCode went idle
// on is checked; the returned func restores it.
func SetStartCheckDelay(d time.Duration) func() {
	old := startCheckDelay
	startCheckDelay = d
	return func() { startCheckDelay = old }
}
