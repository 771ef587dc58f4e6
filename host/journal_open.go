package host

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/lookout-sh/lookout/fleet"
)

// openDurableJournal opens the journal a durable host's options select:
// JetStream when Options.Journal names NATS servers, else SQLite in the
// data directory; and, for a fleet host (Options.FleetHostID), joins the
// fleet beside it.
func (h *Host) openDurableJournal() (journal, *fleetMembership, error) {
	if h.opts.FleetHostID != "" && h.opts.Journal == "" {
		return nil, nil, errFleetNeedsJournal
	}
	if journalForTests != nil && h.opts.Journal == "" {
		j, err := journalForTests(h.dataDir)
		return j, nil, err
	}
	if h.opts.Journal == "" {
		j, err := openSQLiteJournal(JournalPath(h.dataDir), h.opts.SyncFull)
		return j, nil, err
	}
	secure, err := natsSecurity(h.opts.Journal, h.opts.NATSInsecurePlaintext)
	if err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	j, err := openJetStreamJournal(jetStreamConfig{
		URLs:      h.opts.Journal,
		Creds:     h.opts.NATSCreds,
		Secure:    secure,
		Namespace: h.opts.JournalNamespace,
		Replicas:  h.opts.JournalReplicas,
		HostID:    h.opts.FleetHostID,
	})
	if err != nil || h.opts.FleetHostID == "" {
		return j, nil, err
	}
	ttl := cmp.Or(h.opts.FleetLeaseTTL, fleet.DefaultLeaseTTL)
	m, err := fleet.Join(context.Background(), fleet.Config{
		URLs: h.opts.Journal, Creds: h.opts.NATSCreds, Options: secure, Namespace: j.names.namespace,
		Replicas: h.opts.JournalReplicas, HostID: h.opts.FleetHostID, LeaseTTL: ttl,
	})
	if err != nil {
		j.close()
		return nil, nil, err
	}
	f := newFleetMembership(j, m, ttl)
	f.claimedGate = h.opts.claimedGate
	return j, f, nil
}

// errFleetNeedsJournal: a fleet shares a JetStream journal.
var errFleetNeedsJournal = errors.New("a fleet host (--fleet-host) needs a JetStream journal (--journal)")

// journalForTests, set only by the package's tests (journal_env_test.go),
// replaces every durable host's journal.
var journalForTests func(dataDir string) (journal, error)
