package tui

import "testing"

func TestSteerStep(t *testing.T) {
	tests := []struct {
		name              string
		text              string
		runs, agentSteers bool
		want              steerAction
	}{
		{"nothing typed", "  ", true, true, steerNothing},
		{"no turn runs", "hi", false, true, steerSend},
		{"no turn runs, agent cannot", "hi", false, false, steerSend},
		{"the agent takes no input mid-turn", "hi", true, false, steerRefuse},
		{"into the running turn", "hi", true, true, steerIntoTurn},
	}
	for _, tt := range tests {
		if got := steerStep(tt.text, tt.runs, tt.agentSteers); got != tt.want {
			t.Errorf("%s: steerStep = %v, want %v", tt.name, got, tt.want)
		}
	}
}
