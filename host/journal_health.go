package host

import (
	"errors"
	"sync/atomic"
)

// journalHealth remembers the last failed journal commit until a commit
// succeeds again. While it is set the host admits no new work (turn/submit
// and session/create answer -32001 backpressured, naming the failure) and
// holds what its agents emit in memory, retrying the commit; nothing is
// sent that was not journaled.
type journalHealth struct {
	failure atomic.Pointer[error]
}

func (j *journalHealth) failed(err error) { j.failure.Store(&err) }
func (j *journalHealth) ok()              { j.failure.Store(nil) }

// err is the failure to report, or nil while commits succeed.
func (j *journalHealth) err() error {
	if p := j.failure.Load(); p != nil {
		return *p
	}
	return nil
}

// errJournalFailing wraps the journal's own error for clients.
var errJournalFailing = errors.New("the host cannot write its journal")
