// Package model is Lookout's fold: the pure function that turns a session's
// stream of item, turn, approval and state events into a transcript.
//
//	state = f(state, server events, pending client events)
//
// The package does no I/O, starts no goroutines and knows nothing of the
// terminal. A State is owned by one goroutine; it publishes immutable View
// values (copy-on-write, see State.View) that other goroutines may read
// freely. The host runs this same fold to make snapshots, which is what
// makes "snapshot at C + events after C" equal to a fold of every event.
package model
