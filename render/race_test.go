//go:build race

package render

// raceEnabled: the race detector makes the exhaustive tests several times
// slower, so they sample instead.
const raceEnabled = true
