package cli

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	gosync "sync"
	"testing"

	"github.com/adrg/xdg"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/sync"
)

// stranger is a server on another loopback port, standing for any
// process that listens there: it records every credential it is offered
// (Authorization header, ?token= query) and refuses each upgrade with 401,
// as a host that wants a token would.
type stranger struct {
	srv      *httptest.Server
	mu       gosync.Mutex
	requests int
	offered  []string
}

func newStranger(t *testing.T) *stranger {
	t.Helper()
	s := &stranger{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests++
		if a := r.Header.Get("Authorization"); a != "" {
			s.offered = append(s.offered, a)
		}
		if q := r.URL.Query().Get("token"); q != "" {
			s.offered = append(s.offered, "?token="+q)
		}
		s.mu.Unlock()
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// URL is the stranger's WebSocket URL.
func (s *stranger) URL() string { return "ws" + strings.TrimPrefix(s.srv.URL, "http") + "/v1/ws" }

// take returns and forgets how often the stranger was asked and the
// credentials it was offered.
func (s *stranger) take() (requests int, offered []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	requests, offered = s.requests, s.offered
	s.offered, s.requests = nil, 0
	return requests, offered
}

// check fails t if the stranger was offered any credential, or was never
// asked at all.
func (s *stranger) check(t *testing.T, what string) {
	t.Helper()
	requests, offered := s.take()
	if len(offered) > 0 {
		t.Errorf("%s: the stranger received credentials: %d of them", what, len(offered))
	}
	if requests == 0 {
		t.Errorf("%s: the stranger was never asked", what)
	}
}

// cliResult is what one in-process run of the command line produced.
type cliResult struct {
	out, errText string // stdout; stderr and the returned error
	code         int
}

// runCLIWith runs the command line in-process with stdin.
func runCLIWith(t *testing.T, stdin string, args ...string) cliResult {
	t.Helper()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetIn(strings.NewReader(stdin))
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	r := cliResult{out: out.String(), errText: errOut.String()}
	if err != nil {
		r.code = exitCode(err)
		r.errText += err.Error()
		t.Logf("lookout %s: exit %d: %v", strings.Join(args, " "), r.code, err)
	}
	return r
}

// freshXDG gives the test its own XDG state and config directories: the
// default data directory and hosts file start empty.
func freshXDG(t *testing.T) {
	t.Cleanup(xdg.Reload) // runs after t.Setenv restores the environment
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	xdg.Reload()
}

// hostOnDefaultData starts a real host on the default data directory, as
// `lookout serve` without --data does: its token and address are there.
func hostOnDefaultData(t *testing.T) *host.Host {
	t.Helper()
	h, err := host.Start(context.Background(), host.Options{Addr: "127.0.0.1:0", DataDir: host.DefaultDataDir(), DemoSession: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// The local host's token goes to no other address: a stranger on another
// loopback port is offered nothing by any command, with or without --data,
// and each command says how to give a token (exit 3). Fails on the code
// before ResolveCredential, which sent the token file to any URL.
func TestNoCommandSendsTheLocalTokenToAStranger(t *testing.T) {
	freshXDG(t)
	h := hostOnDefaultData(t)
	s := newStranger(t)
	other := hostOnOtherData(t)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"sessions", []string{"sessions", s.URL()}},
		{"sessions, bare host:port", []string{"sessions", strings.TrimSuffix(strings.TrimPrefix(s.URL(), "ws://"), "/v1/ws")}},
		{"sessions --data", []string{"sessions", s.URL(), "--data", host.DefaultDataDir()}},
		{"sessions --data of another host", []string{"sessions", s.URL(), "--data", other.DataDir()}},
		{"watch", []string{"watch", s.URL(), "--session", "s", "--json", "--until-idle"}},
		{"export", []string{"export", s.URL(), "--session", "s", "--format", "json"}},
		{"send", []string{"send", s.URL(), "--session", "s", "hello"}},
		{"attach", []string{"attach", s.URL()}},
		{"attach --data", []string{"attach", s.URL(), "--data", other.DataDir()}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runCLIWith(t, "", c.args...)
			s.check(t, c.name)
			if r.code != exitAuth {
				t.Fatalf("exit %d, want %d", r.code, exitAuth)
			}
			if !strings.Contains(r.errText, "lookout auth login") || !strings.Contains(r.errText, "--token") {
				t.Fatalf("the refusal does not say how to give a token: %s", r.errText)
			}
			for _, tok := range []string{h.Token(), other.Token()} {
				if strings.Contains(r.out+r.errText, tok) {
					t.Fatal("a token shows in the output")
				}
			}
		})
	}
}

// hostOnOtherData starts a real host on a data directory of its own.
func hostOnOtherData(t *testing.T) *host.Host {
	t.Helper()
	h, err := host.Start(context.Background(), host.Options{Addr: "127.0.0.1:0", DataDir: t.TempDir(), DemoSession: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// The local host on the address it recorded needs no flags: the default
// data directory's host, and with --data another one.
func TestTheLocalHostNeedsNoFlagsOnItsRecordedAddress(t *testing.T) {
	freshXDG(t)
	h := hostOnDefaultData(t)
	sid := h.DefaultSessionID()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sessions", h.Addr()}, sid},
		{[]string{"sessions", h.URL()}, sid},
		{[]string{"sessions", "http://" + h.Addr()}, sid},
		{[]string{"export", h.URL(), "--session", sid, "--format", "markdown"}, "# Lookout demo"},
		{[]string{"watch", h.URL(), "--session", sid, "--until-idle"}, "turn/completed"},
	} {
		if r := runCLIWith(t, "", c.args...); r.code != 0 || !strings.Contains(r.out, c.want) {
			t.Fatalf("%v: exit %d, output lacks %q", c.args, r.code, c.want)
		}
	}
	other := hostOnOtherData(t)
	if r := runCLIWith(t, "", "sessions", other.URL(), "--data", other.DataDir()); r.code != 0 || !strings.Contains(r.out, other.DefaultSessionID()) {
		t.Fatalf("--data: exit %d", r.code)
	}
	// Without --data, the other host's token is not found (exit 3), and
	// the default host's token is not sent to it.
	r := runCLIWith(t, "", "sessions", other.URL())
	if r.code != exitAuth || !strings.Contains(r.errText, "belongs to the host at "+h.URL()) {
		t.Fatalf("another host without --data: exit %d: %s", r.code, r.errText)
	}
	// The local address, spelled localhost instead of 127.0.0.1, is
	// another address: no token.
	if r := runCLIWith(t, "", "sessions", strings.Replace(h.URL(), "127.0.0.1", "localhost", 1)); r.code != exitAuth && r.code != exitUnreachable {
		t.Fatalf("localhost spelling: exit %d, want 3 (or 5 where localhost is ::1)", r.code)
	}
}

// Explicit tokens are the user's choice and go to the URL given; both
// flags at once are refused before anything is sent.
func TestExplicitTokensGoToTheURLGiven(t *testing.T) {
	freshXDG(t)
	s := newStranger(t)
	file := filepath.Join(t.TempDir(), "tok")
	if err := os.WriteFile(file, []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := runCLIWith(t, "", "sessions", s.URL(), "--token", "a", "--token-file", file); r.code != exitUsage {
		t.Fatalf("--token and --token-file: exit %d", r.code)
	}
	if requests, _ := s.take(); requests != 0 {
		t.Fatal("dialled despite the refusal")
	}
	if r := runCLIWith(t, "", "sessions", s.URL(), "--token-file", file); r.code != exitAuth || !strings.Contains(r.errText, "refused the token from --token-file") {
		t.Fatalf("--token-file: exit %d: %s", r.code, r.errText)
	}
	if _, offered := s.take(); len(offered) != 1 || offered[0] != "Bearer from-file" {
		t.Fatalf("the explicit token did not go to the URL given: %d offered", len(offered))
	}
}

// A refusal decided before dialling (plain ws:// off this machine, bad
// flags) is a usage error, exit 2, on every path. No traffic: the
// plaintext rule itself is table-tested in sync (TestResolveCredential)
// without dialling; here the mapping is.
func TestCredentialRefusalsAreUsageErrors(t *testing.T) {
	_, err := sync.New(sync.Options{URL: "ws://192.0.2.1:7777", Token: "t", CacheDir: "-"}) // New never dials
	var ce *sync.CredentialError
	if !errors.As(err, &ce) || ce.Reason != sync.RefusedPlaintext || !strings.Contains(err.Error(), "--insecure-plaintext") {
		t.Fatalf("New: %v", err)
	}
	for name, e := range map[string]error{"classifyListErr": classifyListErr(err), "credentialExit": credentialExit(err)} {
		if exitCode(e) != exitUsage {
			t.Fatalf("%s: exit %d, want %d", name, exitCode(e), exitUsage)
		}
	}
	if c, err := (sync.Options{URL: "wss://192.0.2.1:7777", Token: "t"}).Credential(); err != nil || c.Token != "t" {
		t.Fatalf("wss: %v", err)
	}
	if c, err := (sync.Options{URL: "ws://192.0.2.1:7777", Token: "t", InsecurePlaintext: true}).Credential(); err != nil || c.Token != "t" {
		t.Fatalf("--insecure-plaintext: %v", err)
	}
}

// The client's default data directory is the host's.
func TestDefaultDataDirsAgree(t *testing.T) {
	if sync.DefaultDataDir() != host.DefaultDataDir() {
		t.Fatalf("sync %q, host %q", sync.DefaultDataDir(), host.DefaultDataDir())
	}
}

// A token a user puts in the URL (?token=T) is theirs to send, but no
// error shows it.
func TestATokenInTheURLIsNeverPrinted(t *testing.T) {
	freshXDG(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	s := newStranger(t)
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"sessions", "ws://" + closed + "/v1/ws?token=in-url-secret"}, exitUnreachable},
		{[]string{"watch", "ws://" + closed + "/v1/ws?token=in-url-secret", "--until-idle"}, exitUnreachable},
		{[]string{"sessions", "ftp://" + closed + "/?token=in-url-secret"}, exitUsage},
		{[]string{"sessions", s.URL() + "?token=in-url-secret"}, exitAuth},
	} {
		r := runCLIWith(t, "", c.args...)
		if r.code != c.want || strings.Contains(r.out+r.errText, "in-url-secret") {
			t.Fatalf("%v: exit %d (want %d): %s", c.args, r.code, c.want, r.errText)
		}
	}
	if _, offered := s.take(); len(offered) != 1 || offered[0] != "?token=in-url-secret" {
		t.Fatalf("the URL's own token did not go to it: %d offered", len(offered))
	}
}
