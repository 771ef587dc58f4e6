package agenttest

import (
	"testing"
	"time"
)

// Steps is for a smoke test that plays scenarios one after another on one
// running agent: the step function it returns runs each as a subtest,
// stops the test at the first that fails (the later ones build on it), and
// logs how long each took.
func Steps(t *testing.T) func(name string, f func(t *testing.T)) {
	return func(name string, f func(t *testing.T)) {
		t.Helper()
		t0 := time.Now()
		if !t.Run(name, f) {
			t.FailNow()
		}
		t.Logf("%s: %v", name, time.Since(t0).Round(time.Millisecond))
	}
}
