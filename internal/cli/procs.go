package cli

import "runtime"

// serialProcs returns tui.Options.Serial for a process whose work is the
// terminal UI (`lookout attach`, and `lookout` with the host it embeds
// for its window): while the user only watches a
// fast stream, its Go code runs on one thread, and on as many as the
// runtime chose again at the next key, paste or mouse event.
//
// Watching, the client's work is one chain: a frame read from the
// socket, folded, laid out, written to the terminal. A second thread
// runs none of it in parallel; it only turns each hand-off between those
// goroutines into a wake-up of another thread, about a tenth of the
// client's CPU while an answer streams (docs/performance.md, round 8).
// Typing keeps every thread: then the terminal writer and the socket
// reader run beside the UI, and a key never waits behind them.
//
// It is nil when the user set GOMAXPROCS (env): their setting stands.
func serialProcs(env string) func(on bool) {
	if env != "" {
		return nil
	}
	return func(on bool) {
		if on {
			runtime.GOMAXPROCS(1)
			return
		}
		runtime.SetDefaultGOMAXPROCS()
	}
}
