// Command idletea is the smallest full-screen Bubble Tea v2 program: a
// model that never changes. BenchmarkIdleWakeups runs it beside lookout
// to measure what an idle Bubble Tea program costs on its own.
package main

import (
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"
)

type still struct{}

func (still) Init() tea.Cmd { return nil }

func (s still) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "ctrl+c" {
		return s, tea.Quit
	}
	return s, nil
}

func (still) View() tea.View {
	v := tea.NewView("idle bubble tea")
	v.AltScreen = true
	return v
}

func main() {
	if _, err := tea.NewProgram(still{}).Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
