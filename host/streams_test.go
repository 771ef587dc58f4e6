package host_test

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// Deltas are recorded for crash recovery only while their item is open:
// once a turn's items complete, the journal keeps none of them.
func TestRecordedDeltasAreForgottenWhenItemsComplete(t *testing.T) {
	if host.JournalBackend() != "sqlite" {
		t.Skip("reads SQLite's files")
	}
	dir := t.TempDir()
	h := hosttest.Start(t, host.Options{DataDir: dir})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	if _, _, err := c.Submit(sid, "cmd-1", "hello"); err != nil {
		t.Fatal(err)
	}
	deltas := 0
	if _, _, err := c.WaitEvent(st, func(ev *model.Event) bool {
		if ev.Method == model.MethodItemDelta {
			deltas++
		}
		return ev.Method == model.MethodTurnCompleted
	}); err != nil {
		t.Fatal(err)
	}
	if deltas == 0 {
		t.Fatal("the turn streamed no deltas")
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "journal.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM streams WHERE session_id = ?`, sid).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("%d recorded deltas kept after every item completed", n)
	}
}
