package agenttest

import (
	"slices"
	"testing"
)

func TestSteps(t *testing.T) {
	var ran []string
	step := Steps(t)
	step("one", func(t *testing.T) { ran = append(ran, "one") })
	step("two", func(t *testing.T) { ran = append(ran, "two") })
	if !slices.Equal(ran, []string{"one", "two"}) {
		t.Errorf("ran %q", ran)
	}
}
