package tui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/lookout-sh/lookout/model"
)

// runningPlan is the plan of the running turn, while it is open, or nil.
// A turn's items are the newest, so it looks back only over the active
// turn's; a turn holds one plan, and the newest wins should a host send
// more.
func runningPlan(v *model.View) *model.Item {
	if v == nil || v.ActiveTurn == nil {
		return nil
	}
	for i := len(v.Items) - 1; i >= 0; i-- {
		it := v.Items[i]
		if it.TurnID != v.ActiveTurn.TurnID {
			break
		}
		if it.Kind == model.KindPlan && it.IsOpen() && !it.TerminalUnknown {
			return it
		}
	}
	return nil
}

// pinnedPlanRows is how many lines the pinned plan may take on a screen
// height lines tall: 3 up to 24 lines (80x24 keeps its transcript), then
// one more for every 8 lines, at most 6; one on a screen too short for a
// transcript beside it.
func pinnedPlanRows(height int) int {
	switch {
	case height < 12:
		return 1
	case height <= 24:
		return 3
	}
	return min(6, 3+(height-24)/8)
}

// planLines are the running turn's plan pinned above the composer (none
// when no plan runs), collapsed to one line when the user asked. An
// approval or a question above the composer needs the room more: the plan
// takes one line beside it.
func (m *Model) planLines(width int, beside bool) []string {
	it := runningPlan(m.view)
	if it == nil {
		return nil
	}
	rows := pinnedPlanRows(m.height)
	hint := bindingKeys(m.km.Global.Plan) + " collapses"
	switch {
	case beside:
		rows, hint = 1, ""
	case m.planCollapsed:
		hint = bindingKeys(m.km.Global.Plan) + " expands"
	}
	return m.r.PinnedPlan(it, width, rows, m.planCollapsed, hint)
}

// togglePlan collapses the pinned plan to one line, or expands it again;
// the choice holds for the plans of later turns too.
func (m *Model) togglePlan() tea.Cmd {
	if runningPlan(m.view) == nil {
		m.setNotice("no plan is running", true)
		return m.expireNotice()
	}
	m.planCollapsed = !m.planCollapsed
	return nil
}
