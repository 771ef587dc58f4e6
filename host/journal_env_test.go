package host

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"

	"github.com/lookout-sh/lookout/internal/natstest"
)

// With LOOKOUT_TEST_JOURNAL=jetstream every durable host of this package's
// tests journals in one in-process JetStream server, in a namespace of its
// data directory's own, so that a host restarted on the same directory
// finds its sessions as it would in journal.db.
func init() {
	switch v := os.Getenv("LOOKOUT_TEST_JOURNAL"); v {
	case "", "sqlite":
	case "jetstream":
		journalForTests = openTestJetStream
	default:
		panic(fmt.Sprintf("LOOKOUT_TEST_JOURNAL=%q: want sqlite or jetstream", v))
	}
}

// natsURLEnv passes the shared server's URL to host processes a test
// starts (crash_test.go), so that a killed host's journal outlives it.
const natsURLEnv = "LOOKOUT_TEST_NATS_URL"

func openTestJetStream(dataDir string) (journal, error) {
	url := os.Getenv(natsURLEnv)
	if url == "" {
		var err error
		if url, err = natstest.Shared(); err != nil {
			return nil, err
		}
		os.Setenv(natsURLEnv, url)
	}
	sum := sha256.Sum256([]byte(dataDir))
	return openJetStreamJournal(jetStreamConfig{URLs: url, Namespace: "t" + hex.EncodeToString(sum[:8])})
}

// JournalBackend names the journal durable test hosts use: "sqlite"
// or "jetstream". Tests of SQLite's files skip themselves under jetstream.
func JournalBackend() string {
	if journalForTests != nil {
		return "jetstream"
	}
	return "sqlite"
}

// openTestJournal opens the journal a test host in dataDir uses.
func openTestJournal(dataDir string) (journal, error) {
	if journalForTests != nil {
		return journalForTests(dataDir)
	}
	return openSQLiteJournal(JournalPath(dataDir), false)
}
