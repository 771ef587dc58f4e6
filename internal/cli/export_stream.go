package cli

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	gosync "sync"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/render"
	"github.com/lookout-sh/lookout/termtext"
)

// exportStream folds a session for `lookout export` as the client replays
// it, holding only what may still change. Whenever the head of the
// transcript has settled (model.State.ReleaseSettled) its items are
// encoded, in the export's format, into a spill file and forgotten; at
// the end the export is the head (which needs the final cursors, title
// and turn), the spill, the items still held, and the tail. Memory is
// flat in the session's size; the spill is a temporary file.
//
// A full object for an item already spilled (a higher revision, which
// the fold would apply: docs/protocol.md, "How Lookout folds items") is
// kept aside and takes the spilled item's place when the spill is read
// back; so is an item never seen whose position falls among the spilled
// ones.
//
// fold runs on the client's goroutine, finish on the caller's: mu
// serialises them.
type exportStream struct {
	mu     gosync.Mutex
	format string // "json" or "markdown"
	st     *model.State

	spill     *os.File
	spillW    *bufio.Writer
	spilled   int
	last      spillKey // the last item spilled
	late      map[string]*model.Item
	releaseAt int // release the settled head once this many items are held
	buf       []byte
	err       error // the first spill write error
	finished  bool
}

// releaseBatch is how many held items make exportStream release the
// settled head (and the floor of its growing threshold).
const releaseBatch = 256

// spillKey orders items as the transcript does: by position, then id.
type spillKey struct {
	pos int64
	id  string
}

func compareSpillKeys(a, b spillKey) int {
	return cmp.Or(cmp.Compare(a.pos, b.pos), cmp.Compare(a.id, b.id))
}

func newExportStream(sessionID, format string) (*exportStream, error) {
	f, err := os.CreateTemp("", "lookout-export-*")
	if err != nil {
		return nil, fmt.Errorf("export: a spill file: %w", err)
	}
	return &exportStream{format: format, st: model.NewState(sessionID), spill: f, spillW: bufio.NewWriterSize(f, 256<<10),
		late: map[string]*model.Item{}, releaseAt: releaseBatch}, nil
}

// close removes the spill file.
func (x *exportStream) close() {
	x.spill.Close()
	os.Remove(x.spill.Name())
}

// fold is the client's OnEvent: it folds ev, then spills the settled head
// when enough is held. The client reports the events it refuses itself.
func (x *exportStream) fold(ev *model.Event) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.finished || x.err != nil {
		return
	}
	if x.st.SessionID == "" {
		x.st = model.NewState(ev.SessionID)
	}
	if ev.Durable && ev.PrevSeq == 0 && x.st.DurableCursor > 0 {
		// The client folds an epoch from its start again (the host's
		// history was replaced): so does the export.
		if x.err = x.restart(); x.err != nil {
			return
		}
	}
	if it := ev.Item; it != nil && x.spilled > 0 && it.Position > 0 && x.st.Item(it.ID) == nil &&
		compareSpillKeys(spillKey{it.Position, it.ID}, x.last) <= 0 {
		if cur := x.late[it.ID]; cur == nil || it.Revision > cur.Revision {
			x.late[it.ID] = it
		}
		x.st.Pass(ev)
		return
	}
	if x.st.Apply(ev) != nil {
		return
	}
	if x.st.Len() >= x.releaseAt {
		x.release()
	}
}

// release spills the settled head. The threshold grows with what stays
// held (behind an open item), so that a long-open item costs no more
// than amortised constant work per event.
func (x *exportStream) release() {
	for _, it := range x.st.ReleaseSettled() {
		if x.err = x.spillItem(it); x.err != nil {
			return
		}
	}
	x.releaseAt = max(releaseBatch, 2*x.st.Len())
}

// restart forgets everything folded and spilled.
func (x *exportStream) restart() error {
	x.st = model.NewState(x.st.SessionID)
	x.spilled, x.last, x.late, x.releaseAt = 0, spillKey{}, map[string]*model.Item{}, releaseBatch
	if _, err := x.spill.Seek(0, io.SeekStart); err != nil {
		return err
	}
	x.spillW.Reset(x.spill)
	return x.spill.Truncate(0)
}

// itemBody is one item in the export's format: its canonical JSON (with
// what the client cut, if it cut the item: model.CutMember), or its
// markdown section.
func (x *exportStream) itemBody(dst []byte, it *model.Item) []byte {
	if x.format == "json" {
		return it.AppendExportJSON(dst)
	}
	return append(dst, render.MarkdownItem(it)...)
}

// A spill record is the item's id, position and revision, then its body:
// uvarint len(id), id, varint position, varint revision, uvarint
// len(body), body.
func (x *exportStream) spillItem(it *model.Item) error {
	x.buf = x.itemBody(x.buf[:0], it)
	var hdr [3*binary.MaxVarintLen64 + 64]byte
	h := binary.AppendUvarint(hdr[:0], uint64(len(it.ID)))
	h = append(h, it.ID...)
	h = binary.AppendVarint(h, it.Position)
	h = binary.AppendVarint(h, it.Revision)
	h = binary.AppendUvarint(h, uint64(len(x.buf)))
	if _, err := x.spillW.Write(h); err != nil {
		return err
	}
	if _, err := x.spillW.Write(x.buf); err != nil {
		return err
	}
	x.spilled++
	x.last = spillKey{it.Position, it.ID}
	return nil
}

// spillRecord is one record read back; body is reused between reads.
type spillRecord struct {
	id   string
	key  spillKey
	rev  int64
	body []byte
}

// next reads the next record into rec; io.EOF at the end of the spill.
func (rec *spillRecord) next(r *bufio.Reader) error {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return err // io.EOF: no more records
	}
	id := make([]byte, n)
	if _, err := io.ReadFull(r, id); err != nil {
		return err
	}
	pos, err := binary.ReadVarint(r)
	if err != nil {
		return err
	}
	if rec.rev, err = binary.ReadVarint(r); err != nil {
		return err
	}
	size, err := binary.ReadUvarint(r)
	if err != nil {
		return err
	}
	rec.body = slices.Grow(rec.body[:0], int(size))[:size]
	if _, err := io.ReadFull(r, rec.body); err != nil {
		return err
	}
	rec.id = string(id)
	rec.key = spillKey{pos, rec.id}
	return nil
}

// finish writes the export to w: the head, every item in transcript
// order (the spill, with the late revisions in place, then the items
// still held), and the tail. Nothing is folded after it.
func (x *exportStream) finish(w io.Writer) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.finished = true
	if x.err == nil {
		x.err = x.spillW.Flush()
	}
	if x.err != nil {
		return fmt.Errorf("export: the spill file: %w", x.err)
	}
	replace, fresh, err := x.placeLate()
	if err != nil {
		return err
	}
	out := bufio.NewWriterSize(w, 256<<10)
	asJSON := x.format == "json"
	write := func(b []byte) {
		if asJSON {
			b = termtext.JSON(b)
		}
		_, _ = out.Write(b) // out keeps its first error: Flush returns it
	}
	if asJSON {
		write(x.st.AppendCanonicalHead(nil))
	} else {
		write([]byte(render.MarkdownHead(x.st.SessionID, x.st.Value("title"), x.st.Value("costUsd"))))
	}
	first := true
	var scratch []byte
	emit := func(body []byte) {
		if asJSON && !first {
			_ = out.WriteByte(',')
		}
		first = false
		write(body)
	}
	emitItem := func(it *model.Item) {
		scratch = x.itemBody(scratch[:0], it)
		emit(scratch)
	}
	err = x.eachSpilled(256<<10, func(rec *spillRecord) {
		for len(fresh) > 0 && compareSpillKeys(spillKey{fresh[0].Position, fresh[0].ID}, rec.key) < 0 {
			emitItem(fresh[0])
			fresh = fresh[1:]
		}
		if it, ok := replace[rec.id]; ok {
			if it != nil {
				emitItem(it)
			}
			return
		}
		emit(rec.body)
	})
	if err != nil {
		return err
	}
	for _, it := range fresh {
		emitItem(it)
	}
	for _, it := range x.st.Items() {
		emitItem(it)
	}
	if asJSON {
		write(append(x.st.AppendCanonicalTail(nil), '\n'))
	} else {
		write([]byte(render.MarkdownTail(x.st.ActiveTurn(), x.st.QueuedTurns())))
	}
	return out.Flush()
}

// eachSpilled reads the spill file from its start through a buffer of
// bufSize bytes and calls fn with each record (reused between calls).
func (x *exportStream) eachSpilled(bufSize int, fn func(*spillRecord)) error {
	if _, err := x.spill.Seek(0, io.SeekStart); err != nil {
		return err
	}
	r := bufio.NewReaderSize(x.spill, bufSize)
	var rec spillRecord
	for {
		err := rec.next(r)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("export: reading the spill file back: %w", err)
		}
		fn(&rec)
	}
}

// placeLate decides where each late item goes, reading the spill's
// records once when there are any: in place of the spilled item it
// revises (a higher revision at the same position: replace), nowhere (a
// revision no higher: the spilled item stands), or among the spilled
// items by its own position (an item never seen, or one whose position
// moved). replace maps an id to the item written in its record's place,
// nil to leave the record out; fresh is in transcript order.
func (x *exportStream) placeLate() (replace map[string]*model.Item, fresh []*model.Item, err error) {
	if len(x.late) == 0 {
		return nil, nil, nil
	}
	replace = map[string]*model.Item{}
	seen := map[string]bool{}
	err = x.eachSpilled(4096, func(rec *spillRecord) {
		it := x.late[rec.id]
		if it == nil {
			return
		}
		seen[rec.id] = true
		switch {
		case it.Revision <= rec.rev:
		case it.Position == rec.key.pos:
			replace[rec.id] = it
		default:
			replace[rec.id] = nil
			fresh = append(fresh, it)
		}
	})
	if err != nil {
		return nil, nil, err
	}
	for id, it := range x.late {
		if !seen[id] {
			fresh = append(fresh, it)
		}
	}
	slices.SortFunc(fresh, func(a, b *model.Item) int {
		return compareSpillKeys(spillKey{a.Position, a.ID}, spillKey{b.Position, b.ID})
	})
	return replace, fresh, nil
}
