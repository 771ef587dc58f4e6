package host

import (
	"database/sql"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strings"
	"time"

	"github.com/lookout-sh/lookout/model"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// sqliteJournal is the durable profile's journal: a SQLite database in WAL
// mode. Writes go through one connection (SQLite has one writer anyway);
// reads use a separate pool and run concurrently with writes.
type sqliteJournal struct {
	w, r *sql.DB

	insEvent  *sql.Stmt
	setLeas   *sql.Stmt
	insStream *sql.Stmt
	delStream *sql.Stmt
}

const journalSchema = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sessions(
	session_id TEXT PRIMARY KEY,
	epoch TEXT NOT NULL,
	created_at TEXT NOT NULL,
	seq_lease INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events(
	session_id TEXT NOT NULL,
	seq INTEGER NOT NULL,
	method TEXT NOT NULL,
	params BLOB NOT NULL,
	PRIMARY KEY(session_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS streams(
	session_id TEXT NOT NULL,
	seq INTEGER NOT NULL,
	item_id TEXT NOT NULL,
	params BLOB NOT NULL,
	PRIMARY KEY(session_id, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS streams_item ON streams(session_id, item_id);
CREATE TABLE IF NOT EXISTS rejections(
	session_id TEXT NOT NULL,
	command_id TEXT NOT NULL,
	reason TEXT NOT NULL,
	at INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY(session_id, command_id)
) WITHOUT ROWID;
INSERT OR IGNORE INTO meta(key, value) VALUES('schema', '1');
`

func openSQLiteJournal(path string, syncFull bool) (*sqliteJournal, error) {
	sync := "NORMAL"
	if syncFull {
		sync = "FULL"
	}
	dsn := func(extra string) string {
		q := url.Values{}
		q.Add("_pragma", "busy_timeout(10000)")
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous("+sync+")")
		if extra != "" {
			q.Add("_pragma", extra)
		}
		return "file:" + path + "?" + q.Encode()
	}
	if err := createPrivate(path); err != nil {
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	w, err := sql.Open("sqlite", dsn(""))
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	if _, err := w.Exec(journalSchema); err != nil {
		w.Close()
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	if err := migrateJournal(w); err != nil {
		w.Close()
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	// The schema statement opened the WAL: tighten whatever an older host
	// (or a umask) left readable.
	if err := tightenFiles(path, path+"-wal", path+"-shm"); err != nil {
		w.Close()
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	r, err := sql.Open("sqlite", dsn("query_only(1)"))
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(4)
	j := &sqliteJournal{w: w, r: r}
	if j.insEvent, err = w.Prepare(`INSERT INTO events(session_id, seq, method, params) VALUES(?, ?, ?, ?)`); err == nil {
		j.setLeas, err = w.Prepare(`UPDATE sessions SET seq_lease = ? WHERE session_id = ? AND seq_lease < ?`)
	}
	if err == nil {
		j.insStream, err = w.Prepare(`INSERT OR IGNORE INTO streams(session_id, seq, item_id, params) VALUES(?, ?, ?, ?)`)
	}
	if err == nil {
		j.delStream, err = w.Prepare(`DELETE FROM streams WHERE session_id = ? AND item_id = ?`)
	}
	if err != nil {
		j.close()
		return nil, err
	}
	return j, nil
}

// migrateJournal brings a journal written by an older host up to the
// current schema: rejections gained "at" (when it was rejected, so that
// the oldest can be forgotten; older rows count as oldest).
func migrateJournal(w *sql.DB) error {
	var n int
	if err := w.QueryRow(`SELECT count(*) FROM pragma_table_info('rejections') WHERE name = 'at'`).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		if _, err := w.Exec(`ALTER TABLE rejections ADD COLUMN at INTEGER NOT NULL DEFAULT 0`); err != nil {
			return err
		}
	}
	return nil
}

func (j *sqliteJournal) durable() bool { return true }

func (j *sqliteJournal) createSession(rec sessionRecord) error {
	_, err := j.w.Exec(`INSERT INTO sessions(session_id, epoch, created_at, seq_lease) VALUES(?, ?, ?, ?)`,
		rec.ID, rec.Epoch, rec.CreatedAt, rec.Lease)
	return err
}

func (j *sqliteJournal) sessions() ([]sessionRecord, error) {
	rows, err := j.r.Query(`SELECT session_id, epoch, created_at, seq_lease FROM sessions ORDER BY created_at, session_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []sessionRecord
	for rows.Next() {
		var r sessionRecord
		if err := rows.Scan(&r.ID, &r.Epoch, &r.CreatedAt, &r.Lease); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func (j *sqliteJournal) append(sid string, evs []journalEvent, streamed []streamRecord, completed []string, lease int64) error {
	if len(evs) == 1 && lease == 0 && len(streamed) == 0 && len(completed) == 0 {
		// One statement is its own transaction: one commit, fewer round trips.
		_, err := j.insEvent.Exec(sid, evs[0].Seq, evs[0].Method, evs[0].Params)
		return err
	}
	tx, err := j.w.Begin()
	if err != nil {
		return err
	}
	fail := func(err error) error {
		_ = tx.Rollback() // err says why; a failed rollback adds nothing
		return err
	}
	ins := tx.Stmt(j.insEvent)
	defer ins.Close()
	for _, e := range evs {
		if _, err := ins.Exec(sid, e.Seq, e.Method, e.Params); err != nil {
			return fail(err)
		}
	}
	if len(streamed) > 0 {
		st := tx.Stmt(j.insStream)
		defer st.Close()
		for _, r := range streamed {
			if _, err := st.Exec(sid, r.Seq, r.ItemID, r.Params); err != nil {
				return fail(err)
			}
		}
	}
	if len(completed) > 0 {
		del := tx.Stmt(j.delStream)
		defer del.Close()
		for _, id := range completed {
			if _, err := del.Exec(sid, id); err != nil {
				return fail(err)
			}
		}
	}
	if lease > 0 {
		setLease := tx.Stmt(j.setLeas)
		defer setLease.Close()
		if _, err := setLease.Exec(lease, sid, lease); err != nil {
			return fail(err)
		}
	}
	return tx.Commit()
}

func (j *sqliteJournal) streams(sid string) ([]streamRecord, error) {
	rows, err := j.r.Query(`SELECT seq, item_id, params FROM streams WHERE session_id = ? ORDER BY seq`, sid)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []streamRecord
	for rows.Next() {
		var r streamRecord
		if err := rows.Scan(&r.Seq, &r.ItemID, &r.Params); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func (j *sqliteJournal) dropStreams(sid string) error {
	_, err := j.w.Exec(`DELETE FROM streams WHERE session_id = ?`, sid)
	return err
}

func (j *sqliteJournal) setLease(sid string, lease int64) error {
	_, err := j.setLeas.Exec(lease, sid, lease)
	return err
}

func (j *sqliteJournal) readAfter(sid string, after, upto int64, limit, maxBytes int) ([]journalEvent, bool, error) {
	rows, err := j.r.Query(`SELECT seq, method, params FROM events WHERE session_id = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?`,
		sid, after, upto, limit+1)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	var out []journalEvent
	size := 0
	for rows.Next() {
		var e journalEvent
		if err := rows.Scan(&e.Seq, &e.Method, &e.Params); err != nil {
			return nil, false, err
		}
		if len(out) >= limit || (len(out) > 0 && size+len(e.Params) > maxBytes) {
			return out, true, nil
		}
		out = append(out, e)
		size += len(e.Params)
	}
	return out, false, rows.Err()
}

func (j *sqliteJournal) readSeqs(sid string, seqs []int64) ([]journalEvent, error) {
	if len(seqs) == 0 {
		return nil, nil
	}
	args := make([]any, 0, len(seqs)+1)
	args = append(args, sid)
	for _, s := range seqs {
		args = append(args, s)
	}
	q := `SELECT seq, method, params FROM events WHERE session_id = ? AND seq IN (?` +
		strings.Repeat(",?", len(seqs)-1) + `) ORDER BY seq`
	rows, err := j.r.Query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]journalEvent, 0, len(seqs))
	for rows.Next() {
		var e journalEvent
		if err := rows.Scan(&e.Seq, &e.Method, &e.Params); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

func (j *sqliteJournal) lastSeq(sid string) (int64, error) {
	var n int64
	err := j.r.QueryRow(`SELECT coalesce(max(seq), 0) FROM events WHERE session_id = ?`, sid).Scan(&n)
	return n, err
}

// scanRange reads only the rows asked for: without the items' events,
// their params are never read.
func (j *sqliteJournal) scanRange(sid string, after, upto int64, withItems bool, fn func(journalEvent) error) error {
	q := `SELECT seq, method, params FROM events WHERE session_id = ? AND seq > ? AND seq <= ?`
	if !withItems {
		q += ` AND method NOT IN ('` + model.MethodItemStarted + `', '` + model.MethodItemUpdated + `', '` + model.MethodItemCompleted + `')`
	}
	rows, err := j.r.Query(q+` ORDER BY seq`, sid, after, upto)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var e journalEvent
		if err := rows.Scan(&e.Seq, &e.Method, &e.Params); err != nil {
			return err
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (j *sqliteJournal) scan(sid string, fn func(journalEvent) error) error {
	return j.scanRange(sid, 0, math.MaxInt64, true, fn)
}

func (j *sqliteJournal) reject(sid, cid, reason string) error {
	_, err := j.w.Exec(`INSERT OR IGNORE INTO rejections(session_id, command_id, reason, at) VALUES(?, ?, ?, ?)`,
		sid, cid, reason, time.Now().UnixNano())
	return err
}

func (j *sqliteJournal) forget(sid string, cids []string) error {
	if len(cids) == 0 {
		return nil
	}
	args := make([]any, 0, len(cids)+1)
	args = append(args, sid)
	for _, c := range cids {
		args = append(args, c)
	}
	_, err := j.w.Exec(`DELETE FROM rejections WHERE session_id = ? AND command_id IN (?`+strings.Repeat(",?", len(cids)-1)+`)`, args...)
	return err
}

func (j *sqliteJournal) rejections(sid string) ([]rejection, error) {
	rows, err := j.r.Query(`SELECT command_id, reason FROM rejections WHERE session_id = ? ORDER BY at, command_id`, sid)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []rejection
	for rows.Next() {
		var r rejection
		if err := rows.Scan(&r.CommandID, &r.Reason); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func (j *sqliteJournal) setMeta(k, v string) error {
	_, err := j.w.Exec(`INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, k, v)
	return err
}

func (j *sqliteJournal) meta(k string) (string, error) {
	var v string
	err := j.r.QueryRow(`SELECT value FROM meta WHERE key = ?`, k).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

func (j *sqliteJournal) close() error {
	var errs []error
	for _, st := range []*sql.Stmt{j.insEvent, j.setLeas} {
		if st != nil {
			st.Close()
		}
	}
	if j.r != nil {
		errs = append(errs, j.r.Close())
	}
	if j.w != nil {
		errs = append(errs, j.w.Close())
	}
	return errors.Join(errs...)
}
