package host

import (
	"bytes"
	"slices"

	"github.com/lookout-sh/lookout/model"
)

// UpdatePlan gives the turn's plan: the first call opens the turn's plan
// item (inProgress), every later one revises it, an item/updated that
// restates every step (a revision equal to the last is not emitted). The
// plan ends with its turn, in the turn's item terminal, keeping its last
// steps. A plan past the bounds is cut (model.BoundPlan) and lists
// "steps" in truncated; an invalid one (model.CheckPlan) is refused with
// an error and nothing is emitted.
func (t *Turn) UpdatePlan(p model.Plan) error {
	if err := model.CheckPlan(p); err != nil {
		return err
	}
	p, cut := model.BoundPlan(p)
	if err := t.lock(); err != nil {
		return err
	}
	defer t.s.mu.Unlock()
	s, run := t.s, t.run
	if run.plan == "" {
		id := newID()
		o := newItemObject(id, model.KindPlan, run.id, model.StatusInProgress, s.seq+1)
		o.apply(p.Fields(), s.h.bounds())
		setPlanCut(o, cut)
		if _, err := s.emitLocked(model.MethodItemStarted, map[string]any{"item": o.raw()}); err != nil {
			return err
		}
		run.items = append(run.items, id)
		run.plan = id
		return nil
	}
	it := s.state.Item(run.plan)
	if it == nil || !it.IsOpen() {
		return ErrUnknownItem
	}
	o, err := nextItemObject(it.AppendJSON(nil), "")
	if err != nil {
		return err
	}
	before := bytes.Clone(o["steps"])
	hadExplanation := o["explanation"]
	delete(o, "explanation") // a revision without one drops the last one's
	o.apply(p.Fields(), s.h.bounds())
	setPlanCut(o, cut)
	if bytes.Equal(before, o["steps"]) && bytes.Equal(hadExplanation, o["explanation"]) {
		return nil
	}
	_, err = s.emitLocked(model.MethodItemUpdated, map[string]any{"item": o.raw()})
	return err
}

// setPlanCut lists "steps" in a plan's truncated when this revision was
// cut, and takes it out when it was not: every revision restates the
// steps whole.
func setPlanCut(o itemObject, cut bool) {
	t := slices.DeleteFunc(o.truncated(), func(p string) bool { return p == "steps" })
	if cut {
		t = append(t, "steps")
		slices.Sort(t)
	}
	if len(t) == 0 {
		delete(o, "truncated")
		return
	}
	o.set("truncated", t)
}
