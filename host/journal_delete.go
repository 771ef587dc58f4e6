package host

import "slices"

// deleteSession forgets everything the memory journal holds of sid.
func (m *memJournal) deleteSession(sid string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recs = slices.DeleteFunc(m.recs, func(r sessionRecord) bool { return r.ID == sid })
	delete(m.events, sid)
	delete(m.rej, sid)
	for _, k := range sessionMetaKeys(sid) {
		delete(m.kv, k)
	}
	return nil
}

// deleteSession forgets sid in one transaction: its record, events,
// recorded deltas, rejections and meta values. A crash midway leaves all
// of it or none.
func (j *sqliteJournal) deleteSession(sid string) error {
	tx, err := j.w.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // fails only after Commit
	for _, q := range []string{
		`DELETE FROM events WHERE session_id = ?`,
		`DELETE FROM streams WHERE session_id = ?`,
		`DELETE FROM rejections WHERE session_id = ?`,
		`DELETE FROM sessions WHERE session_id = ?`,
	} {
		if _, err := tx.Exec(q, sid); err != nil {
			return err
		}
	}
	for _, k := range sessionMetaKeys(sid) {
		if _, err := tx.Exec(`DELETE FROM meta WHERE key = ?`, k); err != nil {
			return err
		}
	}
	return tx.Commit()
}
