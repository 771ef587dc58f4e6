package sync

import "github.com/lookout-sh/lookout/internal/datadir"

// A client of the host on this machine's data directory follows that host
// when it comes back on another address: the embedded host of a `lookout`
// window that quit, taken over by another window, or `lookout serve`
// started again (its port is random). Before each dial the client reads
// the address the data directory records; when it moved, the credential
// is resolved again for the new address by the usual rules, so the token
// still goes only to a process that proves it is that host (proof.go).

// followLocalHost switches the client to the address its local host now
// records, if Options.FollowLocalHost asks for it and the address moved.
// It runs on the loop goroutine, before a dial.
func (l *loopState) followLocalHost() {
	c := l.c
	if !l.o.FollowLocalHost || c.cred.Source != SourceLocalHost {
		return
	}
	recorded := readTrimmed(datadir.Address(c.cred.LocalDir))
	if !hostMoved(c.cred.LocalAddress, recorded) {
		return
	}
	o := l.o
	o.URL, o.DataDir = recorded, c.cred.LocalDir
	cred, err := o.Credential()
	if err != nil || cred.Source != SourceLocalHost {
		return // the next dial fails on the old address, and tries again
	}
	l.log.Info("sync: the local host moved", "dir", cred.LocalDir, "url", cred.URL)
	c.cred = cred
	c.url.Store(&cred.URL)
	l.dirty = true
}

// hostMoved reports whether the data directory now records an address
// other than the one the client dials. An empty record (the host is gone,
// or has not written it yet) is no move.
func hostMoved(dialled, recorded string) bool {
	if recorded == "" {
		return false
	}
	a, errA := NormalizeURL(dialled)
	b, errB := NormalizeURL(recorded)
	return errA == nil && errB == nil && a != b
}
