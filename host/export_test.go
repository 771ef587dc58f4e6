package host

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
	j, err := openSQLiteJournal(JournalPath(dataDir), false)
	if err != nil {
		return err
	}
	defer j.close()
	return j.setMeta(cleanShutdownKey, "")
}
