package host

import (
	"fmt"
	"strconv"
	"strings"
)

// A graceful Close persists each loaded session's index (the journal meta
// entry "index:<sessionId>"), so that loading the session again reads the
// index instead of every item event: only the other events up to the
// index's head, and whatever the journal holds after it. Journaled events
// never change, so an index stays true for the events up to its head
// whatever is appended later (by this host after a death, or another
// version); a start that finds none, or one it cannot read, reads the
// whole journal.

// indexKey is the journal meta entry holding a session's persisted index.
func indexKey(id string) string { return "index:" + id }

// indexFormat heads a persisted index; another version is not read.
const indexFormat = "lookout-index 1"

// persistedIndex is what loading needs beyond the events other than the
// items': the index of every item at head, the seqs of the journaled
// events, the newest item's recordedAt and the commands that userMessage
// items settled.
type persistedIndex struct {
	epoch      string
	head       int64
	recordedAt string
	positions  []posEntry
	fullSeq    []int64 // of positions[i]
	open       []bool  // of positions[i]
	durables   []int64
	settled    [][2]string // commandId, itemId
}

// persistIndex writes the session's index when it has changed since it
// was last written or read. The caller has flushed the session.
func (s *session) persistIndex() error {
	if !s.loaded.Load() || s.replica {
		return nil // unloaded: the journal and its index have not moved; a replica's writer persists its own
	}
	s.mu.Lock()
	if len(s.outbox) > 0 || s.sentDurable != s.state.DurableCursor || s.persistedHead == s.sentDurable {
		s.mu.Unlock()
		return nil
	}
	text, ok := s.encodeIndexLocked()
	head := s.sentDurable
	s.mu.Unlock()
	if !ok {
		return nil // an id the format cannot hold: the next load reads the journal
	}
	if err := s.h.setMeta(indexKey(s.id), text); err != nil {
		return err
	}
	s.mu.Lock()
	s.persistedHead = head
	s.mu.Unlock()
	return nil
}

// encodeIndexLocked encodes the index as text, one record a line: a
// header, the newest recordedAt, then each item ("pos fullSeq o|c id"),
// each run of consecutive journaled seqs ("start count") and each
// settled command (quoted commandId and itemId). ok is false when an item
// id holds a space or a line break.
func (s *session) encodeIndexLocked() (string, bool) {
	type run struct{ start, n int64 }
	var runs []run
	for _, q := range s.durables {
		if k := len(runs) - 1; k >= 0 && runs[k].start+runs[k].n == q {
			runs[k].n++
		} else {
			runs = append(runs, run{q, 1})
		}
	}
	var settled [][2]string
	for _, c := range s.commands {
		if c.kind == "userMessage" && c.itemID != "" {
			settled = append(settled, [2]string{c.id, c.itemID})
		}
	}
	var b strings.Builder
	b.Grow(len(s.positions)*64 + len(runs)*16 + 256)
	fmt.Fprintf(&b, "%s %s %d %d %d %d\n%s\n", indexFormat, s.epoch, s.sentDurable, len(s.positions), len(runs), len(settled),
		strconv.Quote(s.recordedAt))
	var num []byte
	for _, e := range s.positions {
		if strings.ContainsAny(e.id, " \n\r") || e.id == "" {
			return "", false
		}
		num = strconv.AppendInt(num[:0], e.pos, 10)
		num = append(num, ' ')
		num = strconv.AppendInt(num, s.fullSeq[e.id], 10)
		if _, open := s.open[e.id]; open {
			num = append(num, " o "...)
		} else {
			num = append(num, " c "...)
		}
		b.Write(num)
		b.WriteString(e.id)
		b.WriteByte('\n')
	}
	for _, r := range runs {
		num = strconv.AppendInt(num[:0], r.start, 10)
		num = append(num, ' ')
		num = strconv.AppendInt(num, r.n, 10)
		num = append(num, '\n')
		b.Write(num)
	}
	for _, st := range settled {
		b.WriteString(strconv.Quote(st[0]))
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(st[1]))
		b.WriteByte('\n')
	}
	return b.String(), true
}

var errIndexFormat = fmt.Errorf("persisted index: not in the format %q", indexFormat)

// decodeIndex reads a persisted index.
func decodeIndex(text string) (*persistedIndex, error) {
	line := func() (string, error) {
		l, rest, ok := strings.Cut(text, "\n")
		if !ok {
			return "", errIndexFormat
		}
		text = rest
		return l, nil
	}
	header, err := line()
	if err != nil || !strings.HasPrefix(header, indexFormat+" ") {
		return nil, errIndexFormat
	}
	f := strings.Fields(strings.TrimPrefix(header, indexFormat+" "))
	if len(f) != 5 {
		return nil, errIndexFormat
	}
	var n [4]int64
	for i := range n {
		if n[i], err = strconv.ParseInt(f[i+1], 10, 64); err != nil || n[i] < 0 {
			return nil, errIndexFormat
		}
	}
	ix := &persistedIndex{epoch: f[0], head: n[0]}
	items, runs, settled := int(n[1]), int(n[2]), int(n[3])
	l, err := line()
	if err != nil {
		return nil, err
	}
	if ix.recordedAt, err = strconv.Unquote(l); err != nil {
		return nil, errIndexFormat
	}
	ix.positions = make([]posEntry, items)
	ix.fullSeq = make([]int64, items)
	ix.open = make([]bool, items)
	for i := range items {
		l, err := line()
		if err != nil {
			return nil, err
		}
		pos, rest, _ := strings.Cut(l, " ")
		seq, rest, _ := strings.Cut(rest, " ")
		state, id, _ := strings.Cut(rest, " ")
		p, err1 := strconv.ParseInt(pos, 10, 64)
		q, err2 := strconv.ParseInt(seq, 10, 64)
		if err1 != nil || err2 != nil || (state != "o" && state != "c") || id == "" {
			return nil, errIndexFormat
		}
		ix.positions[i] = posEntry{pos: p, id: id}
		ix.fullSeq[i], ix.open[i] = q, state == "o"
	}
	for range runs {
		l, err := line()
		if err != nil {
			return nil, err
		}
		a, b, _ := strings.Cut(l, " ")
		start, err1 := strconv.ParseInt(a, 10, 64)
		count, err2 := strconv.ParseInt(b, 10, 64)
		if err1 != nil || err2 != nil || count < 1 {
			return nil, errIndexFormat
		}
		for q := range count {
			ix.durables = append(ix.durables, start+q)
		}
	}
	for range settled {
		l, err := line()
		if err != nil {
			return nil, err
		}
		cid, err1 := strconv.QuotedPrefix(l)
		if err1 != nil || len(l) < len(cid)+2 {
			return nil, errIndexFormat
		}
		a, err1 := strconv.Unquote(cid)
		b, err2 := strconv.Unquote(l[len(cid)+1:])
		if err1 != nil || err2 != nil {
			return nil, errIndexFormat
		}
		ix.settled = append(ix.settled, [2]string{a, b})
	}
	if text != "" {
		return nil, errIndexFormat
	}
	return ix, nil
}

// persistedIndexFor reads the session's persisted index when it can be
// used: written for this session's epoch, at a head the journal still
// reaches (last is the journal's last seq).
func (s *session) persistedIndexFor(last int64) *persistedIndex {
	text, err := s.h.meta(indexKey(s.id))
	if err != nil || text == "" {
		return nil
	}
	ix, err := decodeIndex(text)
	if err != nil || ix.epoch != s.epoch || ix.head > last {
		s.h.log.Warn("ignoring a persisted index; reading the whole journal", "session", s.id, "err", err)
		return nil
	}
	return ix
}

// restoreIndexLocked puts a persisted index in place.
func (s *session) restoreIndexLocked(ix *persistedIndex) {
	s.positions = ix.positions
	s.durables = ix.durables
	s.fullSeq = make(map[string]int64, len(ix.positions))
	for i, e := range ix.positions {
		s.fullSeq[e.id] = ix.fullSeq[i]
		if ix.open[i] {
			s.open[e.id] = struct{}{}
		}
	}
	s.recordedAt = ix.recordedAt
	s.persistedHead = ix.head
}
