package tui

import "github.com/lookout-sh/lookout/model"

// What is approved is what was seen: the approve keys act on the first
// waiting approval only once the user has had all of it on screen (its
// summary whole and every line of its item's card, shown expanded), either
// at once in the transcript or, for one taller than the window, page by
// page in the review (review.go). Denying needs no such proof.

// sightKey names what was looked at: an approval, its item's version and
// the width it was laid out at. Any change asks for a new look.
type sightKey struct {
	approvalID string
	version    uint64
	width      int
}

// approvalSight records how much of the first waiting approval has been
// on screen.
type approvalSight struct {
	key   sightKey
	whole bool   // all of it has been on screen
	seen  []bool // the review's body lines shown so far
}

// sightKeyOf is the key of approval a (whose item may be nil) at width.
func sightKeyOf(a model.Approval, it *model.Item, width int) sightKey {
	k := sightKey{approvalID: a.ApprovalID, width: width}
	if it != nil {
		k.version = it.Version
	}
	return k
}

// reset starts over when the key changed.
func (s *approvalSight) reset(k sightKey) {
	if s.key != k {
		*s = approvalSight{key: k}
	}
}

// shownWhole records that everything of k was on screen at once.
func (s *approvalSight) shownWhole(k sightKey) {
	s.reset(k)
	s.whole = true
}

// shownLines records that the review's body lines [from, to) of total
// were on screen; once every line has been, all of it has.
func (s *approvalSight) shownLines(k sightKey, from, to, total int) {
	s.reset(k)
	if len(s.seen) != total {
		s.seen = make([]bool, total)
	}
	for i := max(from, 0); i < min(to, total); i++ {
		s.seen[i] = true
	}
	for _, ok := range s.seen {
		if !ok {
			return
		}
	}
	s.whole = true
}

// seenWhole reports whether all of k has been on screen.
func (s *approvalSight) seenWhole(k sightKey) bool { return s.key == k && s.whole }

// approveAction is what an approve key does.
type approveAction int

const (
	approveNow    approveAction = iota // all of it was seen: answer
	approveReview                      // open the review at its top
	approveMore                        // the review is open: show the next page
)

// approveStep decides an approve key: answer once all of the approval
// was seen; else open the review, or page on through it.
func approveStep(seenWhole, reviewing bool) approveAction {
	switch {
	case seenWhole:
		return approveNow
	case reviewing:
		return approveMore
	}
	return approveReview
}
