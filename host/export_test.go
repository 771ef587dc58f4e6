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

// WithTakeoverGate returns opts whose host calls gate each time it takes a
// session over, after it stopped serving the session's replica and before
// it restores the session.
func WithTakeoverGate(opts Options, gate func(sid string)) Options {
	opts.takeoverGate = gate
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

// QueuedPeak is the most bytes one of h's connections ever had queued for
// writing (its outbound queue plus the batch being written).
func QueuedPeak(h *Host) int64 { return h.queuedPeak.Load() }

// SlowCloses counts h's connections closed with 1013 because their
// outbound queue was full.
func SlowCloses(h *Host) int64 { return h.slowCloses.Load() }

// Loaded reports whether h's session sid has been folded (a session left
// quiet by a graceful shutdown starts unloaded).
func Loaded(h *Host, sid string) bool { return h.session(sid).loaded.Load() }

// DropShutdownSummary removes the clean-shutdown summary of the journal
// in dataDir, as an abnormal death leaves it.
func DropShutdownSummary(dataDir string) error {
	j, err := openTestJournal(dataDir)
	if err != nil {
		return err
	}
	defer j.close()
	return j.setMeta(cleanShutdownKey, "")
}

// OutboundTotal is the bytes queued across the host's connections now.
func OutboundTotal(h *Host) int64 { return h.out.bytes.Load() }

// BudgetSheds counts connections closed for the host's outbound budget.
func BudgetSheds(h *Host) int64 { return h.budgetSheds.Load() }

// InvalidCloses counts connections closed for a flood of invalid frames.
func InvalidCloses(h *Host) int64 { return h.invalidCloses.Load() }

// HoldsSession reports whether h holds a session struct for id (its own,
// a replica or a stub).
func HoldsSession(h *Host, id string) bool { return h.session(id) != nil }
