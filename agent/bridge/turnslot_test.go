package bridge

import "testing"

func TestTurnSlot(t *testing.T) {
	var s TurnSlot[string]
	first, second := new(string), new(string)
	if !s.Alive() || s.Current() != nil {
		t.Fatal("the zero slot is not empty and alive")
	}
	if !s.Begin(first) || s.Current() != first {
		t.Fatal("Begin did not make the turn current")
	}
	s.End(second) // not the running turn: nothing changes
	if s.Current() != first {
		t.Error("End of another turn emptied the slot")
	}
	s.End(first)
	if s.Current() != nil {
		t.Error("End left the turn")
	}
	s.Begin(second)
	if got := s.Die(); got != second {
		t.Errorf("Die returned %v, want the running turn", got)
	}
	if s.Alive() || s.Begin(first) || s.Current() != second {
		t.Error("a turn began after the child died")
	}
}
