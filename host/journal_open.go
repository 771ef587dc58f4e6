package host

// openDurableJournal opens the journal a durable host's options select:
// JetStream when Options.Journal names NATS servers, else SQLite in the
// data directory.
func (h *Host) openDurableJournal() (journal, error) {
	if journalForTests != nil {
		return journalForTests(h.dataDir)
	}
	if h.opts.Journal == "" {
		return openSQLiteJournal(JournalPath(h.dataDir), h.opts.SyncFull)
	}
	return openJetStreamJournal(jetStreamConfig{
		URLs:      h.opts.Journal,
		Creds:     h.opts.NATSCreds,
		Namespace: h.opts.JournalNamespace,
		Replicas:  h.opts.JournalReplicas,
	})
}

// journalForTests, set only by the package's tests (journal_env_test.go),
// replaces every durable host's journal.
var journalForTests func(dataDir string) (journal, error)
