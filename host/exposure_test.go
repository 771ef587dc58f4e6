//go:build unix

package host_test

import (
	"bytes"
	"crypto/tls"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// syncBuffer is a bytes.Buffer safe for a logger and a test to share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func TestJournalFilesAndDataDirArePrivate(t *testing.T) {
	if host.JournalBackend() != "sqlite" {
		t.Skip("reads SQLite's files")
	}
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "data")
	h := hosttest.Start(t, host.Options{DataDir: dir})
	c := hosttest.Dial(t, h)
	newSession(t, c) // writes: the WAL and its index exist
	db := host.JournalPath(dir)
	files := []string{db, db + "-wal", db + "-shm", host.TokenPath(dir), host.AddressPath(dir)}
	for _, f := range files {
		if m := mode(t, f); m != 0o600 {
			t.Errorf("%s: mode %v, want 0600", filepath.Base(f), m)
		}
	}
	if m := mode(t, dir); m != 0o700 {
		t.Errorf("data directory: mode %v, want 0700", m)
	}
	h.Close()

	// What an older host (or a loose umask) left readable is tightened on
	// the next start, and the host says so about the directory.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{db, db + "-wal", db + "-shm"} {
		if err := os.WriteFile(f, nil, 0o644); err != nil && !os.IsExist(err) {
			t.Fatal(err)
		}
	}
	// The WAL is checkpointed away at a clean close: recreate it loose.
	os.Remove(db + "-wal")
	os.Remove(db + "-shm")
	if err := os.Chmod(db, 0o644); err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	h2 := hosttest.Start(t, host.Options{DataDir: dir, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	newSession(t, hosttest.Dial(t, h2))
	for _, f := range []string{db, db + "-wal", db + "-shm"} {
		if m := mode(t, f); m != 0o600 {
			t.Errorf("after restart %s: mode %v, want 0600", filepath.Base(f), m)
		}
	}
	if m := mode(t, dir); m != 0o700 {
		t.Errorf("after restart the data directory: mode %v, want 0700", m)
	}
	if !strings.Contains(log.String(), "tightened the data directory") {
		t.Errorf("the host did not say it tightened the directory: %s", log.String())
	}
}

func TestTLSServesWSS(t *testing.T) {
	cert, key, pool := hosttest.SelfSignedCert(t)
	dir := t.TempDir()
	h := hosttest.Start(t, host.Options{DataDir: dir, TLSCert: cert, TLSKey: key})
	if !strings.HasPrefix(h.URL(), "wss://") || !h.TLS() {
		t.Fatalf("URL %s", h.URL())
	}
	if u, err := host.RunningURL(dir); err != nil || u != h.URL() {
		t.Fatalf("recorded address %q (%v), want %s", u, err, h.URL())
	}
	auth := http.Header{"Authorization": {"Bearer " + h.Token()}}
	c, _, err := hosttest.DialURLTLS(h.URL(), auth, &tls.Config{RootCAs: pool})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var list struct{ Sessions []any }
	c.MustCall(t, "session/list", nil, &list)
	// A client that does not trust the certificate, or speaks plain ws://,
	// gets nowhere.
	if c, _, err := hosttest.DialURLTLS(h.URL(), auth, &tls.Config{}); err == nil {
		c.Close()
		t.Fatal("an untrusted certificate was accepted")
	}
	if c, _, err := hosttest.DialURL("ws://"+h.Addr()+host.WSPath, auth); err == nil {
		c.Close()
		t.Fatal("plain ws:// reached a TLS host")
	}
	// Half a configuration is refused.
	if _, err := host.Start(t.Context(), host.Options{Addr: "127.0.0.1:0", Ephemeral: true, TLSCert: cert}); err == nil {
		t.Fatal("a certificate without a key was accepted")
	}
}

func TestPlaintextOnANonLoopbackAddressWarns(t *testing.T) {
	cert, key, _ := hosttest.SelfSignedCert(t)
	for _, tc := range []struct {
		addr string
		tls  bool
		warn bool
	}{
		{"0.0.0.0:0", false, true},
		{"0.0.0.0:0", true, false},
		{"127.0.0.1:0", false, false},
	} {
		var log syncBuffer
		opts := host.Options{Addr: tc.addr, Ephemeral: true, Logger: slog.New(slog.NewTextHandler(&log, nil))}
		if tc.tls {
			opts.TLSCert, opts.TLSKey = cert, key
		}
		h := hosttest.Start(t, opts)
		h.Close()
		if got := strings.Contains(log.String(), "not a loopback address"); got != tc.warn {
			t.Errorf("%s tls=%v: warned %v, want %v: %s", tc.addr, tc.tls, got, tc.warn, log.String())
		}
	}
}

func TestRequestIDsAreNeverEchoedUnsafe(t *testing.T) {
	h := hosttest.Start(t, host.Options{Ephemeral: true})
	c := hosttest.Dial(t, h)
	for _, tc := range []struct {
		id, want string
	}{
		{"\"bad \xff\xfe utf-8\"", "null"},
		{`"escape \u001b[31m"`, "null"},
		{"\"raw \u0085 C1\"", "null"},
		{`"lone surrogate \ud800"`, "null"},
		{`"` + strings.Repeat("x", host.MaxIDBytes) + `"`, "null"},
		{`"caf\u00e9 ✓"`, `"caf\u00e9 ✓"`},
		{`"plain-id-1"`, `"plain-id-1"`},
		{`42`, `42`},
	} {
		if err := c.Send([]byte(`{"jsonrpc":"2.0","id":` + tc.id + `,"method":"session/list"}`)); err != nil {
			t.Fatal(err)
		}
		f, err := c.Next()
		if err != nil {
			t.Fatal(err)
		}
		if string(f.ID) != tc.want {
			t.Errorf("id %q answered with id %q, want %q", tc.id, f.ID, tc.want)
		}
		if tc.want == "null" && (f.Error == nil || f.Error.Code != model.CodeInvalidRequest) {
			t.Errorf("id %q: error %+v, want -32600", tc.id, f.Error)
		}
	}
}
