package tui

import (
	"fmt"
	"testing"
)

// BenchmarkSlashFilter is the work of one keystroke in the command list
// with 200 agent commands: the entries and their fuzzy filter (issue 28
// asks for less than a frame, 16 ms).
func BenchmarkSlashFilter(b *testing.B) {
	agent := make([]agentCommand, 200)
	for i := range agent {
		agent[i] = agentCommand{Name: fmt.Sprintf("command-%03d", i), Description: "what command " + fmt.Sprint(i) + " does, in one line"}
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(filterSlash(slashEntries(agent), "cmd1")) == 0 {
			b.Fatal("nothing matched")
		}
	}
}
