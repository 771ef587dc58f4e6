package host

import "time"

// SetWatchEveryForTest makes the summary stream look every ms
// milliseconds; the returned func restores it.
func SetWatchEveryForTest(ms int) func() {
	old := watchEvery
	watchEvery = time.Duration(ms) * time.Millisecond
	return func() { watchEvery = old }
}
