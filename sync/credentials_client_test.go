package sync

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	gosync "sync"
	"testing"

	"github.com/adrg/xdg"

	"github.com/lookout-sh/lookout/host"
)

// credentialRecorder stands for any process listening on another loopback
// port: it records every credential offered to it (Authorization header,
// ?token= query) and answers 401, as a host wanting a token would.
type credentialRecorder struct {
	srv      *httptest.Server
	mu       gosync.Mutex
	requests int
	offered  int
}

func newCredentialRecorder(t *testing.T) *credentialRecorder {
	r := &credentialRecorder{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.requests++
		if req.Header.Get("Authorization") != "" || req.URL.Query().Get("token") != "" {
			r.offered++
		}
		r.mu.Unlock()
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *credentialRecorder) URL() string {
	return "ws" + strings.TrimPrefix(r.srv.URL, "http") + "/v1/ws"
}

func (r *credentialRecorder) counts() (requests, offered int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests, r.offered
}

// isolateXDG gives the test empty XDG state and config directories, so
// the default data directory and hosts file are the test's own.
func isolateXDG(t *testing.T) {
	t.Cleanup(xdg.Reload) // runs after t.Setenv restores the environment
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("LOOKOUT_TOKEN", "")
	xdg.Reload()
}

// The connection path attach uses (New + Run, and ListSessions) with
// default Options sends the default data directory's token only to the
// address its host recorded: a stranger on another loopback port gets
// nothing, the host itself is reached. Fails on the code before
// ResolveCredential, which sent that token to any URL.
func TestDefaultOptionsSendTheLocalTokenOnlyToItsHost(t *testing.T) {
	isolateXDG(t)
	h := startHost(t, host.Options{DataDir: filepath.Join(xdg.StateHome, "lookout"), DemoSession: true})
	r := newCredentialRecorder(t)

	c := fastClient(t, Options{URL: r.URL(), SessionID: "s"})
	s := waitFor(t, c.Client, "auth error", func(s Picture) bool { return s.Freshness.State == Error })
	c.Stop()
	if _, err := ListSessions(t.Context(), Options{URL: r.URL()}); err == nil {
		t.Fatal("ListSessions at the stranger succeeded")
	}
	if req, off := r.counts(); req < 2 || off != 0 {
		t.Fatalf("the stranger was asked %d times and offered %d credentials, want none", req, off)
	}
	if s.Freshness.Reason != ReasonAuth || !strings.Contains(s.Freshness.Err, "lookout auth login") {
		t.Fatalf("the refusal does not say how to give a token: %+v", s.Freshness)
	}

	own := fastClient(t, Options{URL: h.URL(), SessionID: h.DefaultSessionID()})
	waitFor(t, own.Client, "live at the local host", isLive)
	if ss, err := ListSessions(t.Context(), Options{URL: h.URL()}); err != nil || len(ss) != 1 {
		t.Fatalf("ListSessions at the local host: %v %v", ss, err)
	}
}

// A hosts-file token reaches its host and no other.
func TestHostsFileTokenReachesOnlyItsHost(t *testing.T) {
	isolateXDG(t)
	h := startHost(t, host.Options{DemoSession: true})
	r := newCredentialRecorder(t)
	path := filepath.Join(t.TempDir(), "hosts.json")
	hosts, _ := LoadHosts(path)
	if _, err := hosts.Set(h.URL(), Secret(h.Token())); err != nil {
		t.Fatal(err)
	}
	if err := hosts.Save(path); err != nil {
		t.Fatal(err)
	}
	if _, err := ListSessions(t.Context(), Options{URL: h.URL(), HostsFile: "-"}); err == nil {
		t.Fatal("reached the host without its token")
	}
	if _, err := ListSessions(t.Context(), Options{URL: h.URL(), HostsFile: path}); err != nil {
		t.Fatalf("with the hosts file: %v", err)
	}
	c := fastClient(t, Options{URL: h.URL(), HostsFile: path, SessionID: h.DefaultSessionID()})
	waitFor(t, c.Client, "live", isLive)
	if _, err := ListSessions(t.Context(), Options{URL: r.URL(), HostsFile: path}); err == nil {
		t.Fatal("the stranger let ListSessions in")
	}
	if _, off := r.counts(); off != 0 {
		t.Fatalf("the stranger was offered %d credentials", off)
	}
}

// Options.Credential reads the environment and files; unreadable explicit
// inputs are refusals, missing implicit ones are not.
func TestOptionsCredentialReadsItsInputs(t *testing.T) {
	isolateXDG(t)
	dir := t.TempDir()
	write := func(path, data string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "token"), "local-tok\n")
	write(filepath.Join(dir, "address"), "ws://127.0.0.1:7777/v1/ws")
	file := filepath.Join(dir, "explicit")
	write(file, " file-tok \n")
	badHosts := filepath.Join(dir, "hosts.json")
	write(badHosts, "{")

	cred := func(o Options) (Credential, error) { t.Helper(); return o.Credential() }
	if c, err := cred(Options{URL: "127.0.0.1:7777", DataDir: dir}); err != nil || c.Token != "local-tok" || c.Source != SourceLocalHost {
		t.Fatalf("local: %+v %v", c, err)
	}
	if c, err := cred(Options{URL: "127.0.0.1:7778", DataDir: dir}); err != nil || c.Token != "" {
		t.Fatalf("other port: %+v %v", c, err)
	}
	if c, err := cred(Options{URL: "127.0.0.1:7777"}); err != nil || c.Token != "" {
		t.Fatalf("empty default data directory: %+v %v", c, err)
	}
	if c, err := cred(Options{URL: "127.0.0.1:9", TokenFile: file}); err != nil || c.Token != "file-tok" {
		t.Fatalf("--token-file: %+v %v", c, err)
	}
	var ce *CredentialError
	if _, err := cred(Options{URL: "127.0.0.1:9", TokenFile: filepath.Join(dir, "missing")}); !errors.As(err, &ce) || ce.Reason != RefusedTokenFile {
		t.Fatalf("missing --token-file: %v", err)
	}
	if _, err := cred(Options{URL: "127.0.0.1:7777", DataDir: dir, HostsFile: badHosts}); !errors.As(err, &ce) || ce.Reason != RefusedHostsFile {
		t.Fatalf("broken hosts file: %v", err)
	}
	// An explicit token needs no hosts file: a broken one does not matter.
	if c, err := cred(Options{URL: "127.0.0.1:7777", Token: "flag-tok", HostsFile: badHosts}); err != nil || c.Token != "flag-tok" {
		t.Fatalf("--token: %+v %v", c, err)
	}
	t.Setenv("LOOKOUT_TOKEN", " env-tok\n")
	if c, err := cred(Options{URL: "127.0.0.1:9", DataDir: dir, HostsFile: badHosts}); err != nil || c.Token != "env-tok" || c.Source != SourceEnv {
		t.Fatalf("LOOKOUT_TOKEN: %+v %v", c, err)
	}
	// New refuses before dialling (it never dials; Run does).
	if _, err := New(Options{URL: "ws://192.0.2.1:7777", CacheDir: "-"}); !errors.As(err, &ce) || ce.Reason != RefusedPlaintext {
		t.Fatalf("New with plain ws:// off the machine: %v", err)
	}
}

// A wrong ?token= is reported as a token sent and refused.
func TestWrongQueryTokenIsReportedAsRefused(t *testing.T) {
	isolateXDG(t)
	h := startHost(t, host.Options{DemoSession: true})
	_, err := ListSessions(t.Context(), Options{URL: h.URL() + "?token=wrong-query-token", HostsFile: "-"})
	if err == nil || !strings.Contains(err.Error(), "refused the token from the URL's ?token=") ||
		strings.Contains(err.Error(), "no token was sent") || strings.Contains(err.Error(), "wrong-query-token") {
		t.Fatalf("err = %v", err)
	}
	if _, err := ListSessions(t.Context(), Options{URL: h.URL() + "?token=" + h.Token(), HostsFile: "-"}); err != nil {
		t.Fatalf("the right ?token=: %v", err)
	}
}
