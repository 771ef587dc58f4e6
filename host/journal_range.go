package host

// rangeScanner is a journal that reads a range of a session's events,
// with or without the items' full-object events, without reading the rest.
// Loading a session with a persisted index uses it; another journal is
// scanned whole and filtered (scanRange).
type rangeScanner interface {
	scanRange(sid string, after, upto int64, withItems bool, fn func(journalEvent) error) error
}

// scanRange calls fn for every event of a session with after < seq <=
// upto in seq order, leaving out full-object item events unless withItems.
func scanRange(j journal, sid string, after, upto int64, withItems bool, fn func(journalEvent) error) error {
	if r, ok := j.(rangeScanner); ok {
		return r.scanRange(sid, after, upto, withItems, fn)
	}
	return j.scan(sid, func(e journalEvent) error {
		if e.Seq <= after || e.Seq > upto || (!withItems && isFullObject(e.Method)) {
			return nil
		}
		return fn(e)
	})
}
