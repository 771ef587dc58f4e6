package host

import gosync "sync"

// JournalFault makes a host's journal fail its writes while set, as a disk
// whose fsync fails would. Reads keep working.
type JournalFault struct {
	mu  gosync.Mutex
	err error
}

// Set makes every later write fail with err; nil heals the journal.
func (f *JournalFault) Set(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.err = err
}

func (f *JournalFault) get() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

// WithJournalFault returns opts whose host's journal obeys f.
func WithJournalFault(opts Options, f *JournalFault) Options {
	opts.wrapJournal = func(j journal) journal { return &faultyJournal{journal: j, f: f} }
	return opts
}

type faultyJournal struct {
	journal
	f *JournalFault
}

func (j *faultyJournal) append(sid string, evs []journalEvent, streamed []streamRecord, completed []string, lease int64) error {
	if err := j.f.get(); err != nil {
		return err
	}
	return j.journal.append(sid, evs, streamed, completed, lease)
}

func (j *faultyJournal) setLease(sid string, lease int64) error {
	if err := j.f.get(); err != nil {
		return err
	}
	return j.journal.setLease(sid, lease)
}

func (j *faultyJournal) createSession(rec sessionRecord) error {
	if err := j.f.get(); err != nil {
		return err
	}
	return j.journal.createSession(rec)
}

func (j *faultyJournal) reject(sid, commandID, reason string) error {
	if err := j.f.get(); err != nil {
		return err
	}
	return j.journal.reject(sid, commandID, reason)
}
