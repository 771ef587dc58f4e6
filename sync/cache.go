package sync

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// The replica cache file: one header line of JSON, a newline, then the
// body: a protocol snapshot object (model.Snapshot) of the held range. The
// header names the format, its version, the host URL and session the file
// belongs to, the epoch, whether the range grants sync authority, and the
// body's length and SHA-256. Anything that does not check out is discarded
// with a warning, never trusted.
const (
	replicaFormat  = "lookout-replica"
	replicaVersion = 1
)

// replicaHeader is the first line of a replica cache file.
type replicaHeader struct {
	Format    string `json:"format"`
	Version   int    `json:"version"`
	Host      string `json:"host"`
	SessionID string `json:"sessionId"`
	Epoch     string `json:"epoch"`
	// Authority: the body is the exact synchronized range, so the client
	// may resume from its cursor. False: a display-only tail that paints
	// but makes the client subscribe without a cursor.
	Authority bool   `json:"authority"`
	Items     int    `json:"items"`
	BodyLen   int    `json:"bodyLen"`
	SHA256    string `json:"sha256"`
	SavedAt   string `json:"savedAt"`
	// Bounded says why a display-only tail was stored when the range did
	// not fit the cache's byte bound (Options.CacheBytes); "" otherwise.
	Bounded string `json:"bounded,omitempty"`
}

// replica is a decoded, verified cache file.
type replica struct {
	Header replicaHeader
	Snap   model.Snapshot
}

// cachePath is the file for (host URL, session) under dir.
func cachePath(dir, hostURL, sessionID string) string {
	h := sha256.Sum256([]byte(hostURL))
	return filepath.Join(dir, "replicas", hex.EncodeToString(h[:8]), safeName(sessionID)+".replica")
}

// safeName keeps a session id as a file name when it is plainly safe, and
// hashes it otherwise.
func safeName(s string) string {
	ok := s != "" && len(s) <= 100 && s[0] != '.'
	for i := 0; ok && i < len(s); i++ {
		c := s[i]
		ok = c == '-' || c == '_' || c == '.' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
	}
	if ok {
		return s
	}
	h := sha256.Sum256([]byte(s))
	return "h-" + hex.EncodeToString(h[:12])
}

// encodeReplica builds the file bytes.
func encodeReplica(h replicaHeader, snap model.Snapshot) ([]byte, error) {
	body := snap.AppendJSON(nil) // a long message's item unchecked: it is the fold's own encoding
	sum := sha256.Sum256(body)
	h.Format, h.Version = replicaFormat, replicaVersion
	h.BodyLen, h.SHA256, h.Items = len(body), hex.EncodeToString(sum[:]), len(snap.Items)
	head, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(head)+1+len(body))
	out = append(append(append(out, head...), '\n'), body...)
	return out, nil
}

// decodeReplica verifies file bytes against the expected host and session.
func decodeReplica(data []byte, hostURL, sessionID string) (*replica, error) {
	i := bytes.IndexByte(data, '\n')
	if i < 0 {
		return nil, errors.New("no header line")
	}
	var r replica
	if err := json.Unmarshal(data[:i], &r.Header); err != nil {
		return nil, fmt.Errorf("malformed header: %w", err)
	}
	h := r.Header
	switch {
	case h.Format != replicaFormat:
		return nil, fmt.Errorf("not a replica file (format %q)", h.Format)
	case h.Version != replicaVersion:
		return nil, fmt.Errorf("unsupported replica version %d", h.Version)
	case h.Host != hostURL || h.SessionID != sessionID:
		return nil, fmt.Errorf("foreign replica (host %q, session %q)", h.Host, h.SessionID)
	case h.Epoch == "":
		return nil, errors.New("replica without an epoch")
	}
	body := data[i+1:]
	if len(body) != h.BodyLen {
		return nil, fmt.Errorf("body is %d bytes, header says %d", len(body), h.BodyLen)
	}
	sum := sha256.Sum256(body)
	if hex.EncodeToString(sum[:]) != h.SHA256 {
		return nil, errors.New("checksum mismatch")
	}
	if err := json.Unmarshal(body, &r.Snap); err != nil {
		return nil, fmt.Errorf("malformed body: %w", err)
	}
	if len(r.Snap.Items) != h.Items {
		return nil, fmt.Errorf("body holds %d items, header says %d", len(r.Snap.Items), h.Items)
	}
	return &r, nil
}

// writeAtomic writes data to path through a temporary file and a rename,
// so a reader sees the old file or the new one, never a torn one.
func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".replica-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}

// cacheState is the loop's replica cache bookkeeping.
type cacheState struct {
	dirty   bool
	writing bool
	tick    alarm // the next write
	doneC   chan error
	// boundNoted: the range passed the byte bound and the log said so.
	boundNoted bool
}

func (l *loopState) cacheEnabled() bool { return l.o.CacheDir != "-" && l.sessionID != "" }

func (l *loopState) cacheFile() string {
	return cachePath(l.o.CacheDir, cacheHost(l.c.URL()), l.sessionID)
}

// loadCache paints the replica of (host, session), if there is a good one.
func (l *loopState) loadCache() {
	if !l.cacheEnabled() {
		return
	}
	path := l.cacheFile()
	data, err := readBounded(path, int64(l.o.CacheBytes)+maxHeaderBytes)
	if err != nil {
		switch {
		case errors.Is(err, os.ErrNotExist):
		case errors.Is(err, errTooLarge):
			l.addError("replica cache discarded: " + err.Error())
			_ = os.Remove(path)
		default:
			l.addError("replica cache unreadable: " + err.Error())
		}
		return
	}
	r, err := decodeReplica(data, cacheHost(l.c.URL()), l.sessionID)
	if err == nil {
		_, err = l.st.LoadSnapshot(l.sessionID, r.Header.Epoch, r.Snap)
	}
	if err != nil {
		l.addError("replica cache discarded: " + err.Error())
		_ = os.Remove(path)
		return
	}
	l.st.TakeDiagnostics() // a cut item already kept the file display-only
	l.gen++
	l.authority = r.Header.Authority
	l.painted = true
	l.dirty = true
}

// maxHeaderBytes is the room a replica file's header line may take beyond
// the body's bound.
const maxHeaderBytes = 64 << 10

var errTooLarge = errors.New("file too large")

// readBounded reads a file of at most limit bytes; a larger one is
// errTooLarge, and is not read.
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > limit {
		return nil, fmt.Errorf("%w: %d bytes, over the bound of %d", errTooLarge, fi.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("%w: over the bound of %d bytes", errTooLarge, limit)
	}
	return data, err
}

// cacheDirty notes that the held range changed and schedules a write.
func (l *loopState) cacheDirty() {
	if !l.cacheEnabled() {
		return
	}
	l.cache.dirty = true
	if !l.cache.writing && !l.cache.tick.armed() {
		l.cache.tick.arm(l.clock, cacheEvery)
	}
}

// replicaOf encodes the held range for the cache. The range is stored with
// sync authority only when it is lossless: every item settled (an open
// item's streamed text could not be resumed, since deltas are never
// replayed) and held whole (none cut at the client's bounds), at most
// CacheItemLimit items, its encoding within CacheBytes, and a
// network-synchronized epoch. Otherwise the newest items, at most
// CacheItemLimit of them and within CacheBytes, are stored as a
// display-only tail. Pending entries are never stored. A range too large
// for the bound is said so: in the file's header (bounded), and once in
// the log.
func (l *loopState) replicaOf() ([]byte, error) {
	items := l.st.Items()
	lossless := l.authority && l.st.Epoch != "" && len(items) <= l.o.CacheItemLimit
	for i := len(items) - 1; lossless && i >= 0; i-- {
		if items[i].IsOpen() || items[i].TerminalUnknown || items[i].Cut != nil {
			lossless = false
		}
	}
	limit := 0
	if !lossless {
		limit = l.o.CacheItemLimit
	}
	// The items' share of the bound (15/16); the rest (header, queue,
	// approvals, session values) is checked on the encoded file.
	snap, cut := l.st.SnapshotWithin(limit, max(l.o.CacheBytes-l.o.CacheBytes/16, 1))
	h := replicaHeader{Host: cacheHost(l.c.URL()), SessionID: l.sessionID, Epoch: l.st.Epoch,
		Authority: lossless && !cut, SavedAt: l.clock.Now().UTC().Format(time.RFC3339)}
	if cut {
		h.Bounded = fmt.Sprintf("the held range passes the cache bound of %d bytes: the newest %d of %d items are stored, display-only", l.o.CacheBytes, len(snap.Items), len(items))
		if !l.cache.boundNoted {
			l.cache.boundNoted = true
			l.log.Warn("replica cache", "note", h.Bounded)
		}
	}
	data, err := encodeReplica(h, snap)
	if err == nil && len(data) > l.o.CacheBytes {
		err = fmt.Errorf("the replica is %d bytes, over the cache bound of %d", len(data), l.o.CacheBytes)
	}
	return data, err
}

// writeCache writes the replica if it changed: in the background, or
// synchronously when final (Run is ending).
func (l *loopState) writeCache(final bool) {
	if final && l.cache.writing {
		// Run returns only once the replica is on disk: let the write in
		// flight finish, whether or not anything changed since.
		if err := <-l.cache.doneC; err != nil {
			l.addError("replica cache not written: " + err.Error())
		}
		l.cache.writing = false
	}
	if !l.cacheEnabled() || !l.cache.dirty || l.st.Epoch == "" || !l.authority || l.cache.writing {
		return
	}
	data, err := l.replicaOf()
	if err != nil {
		l.addError("replica cache not encoded: " + err.Error())
		return
	}
	l.cache.dirty = false
	path := l.cacheFile()
	if final {
		if err := writeAtomic(path, data); err != nil {
			l.addError("replica cache not written: " + err.Error())
		}
		return
	}
	if l.cache.doneC == nil {
		l.cache.doneC = make(chan error, 1)
	}
	l.cache.writing = true
	done := l.cache.doneC
	go func() { done <- writeAtomic(path, data) }()
}

func (l *loopState) cacheWritten(err error) {
	l.cache.writing = false
	if err != nil {
		l.addError("replica cache not written: " + err.Error())
	}
	if l.cache.dirty {
		l.cache.dirty = false
		l.cacheDirty()
	}
}
