package sync

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	gosync "sync"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/internal/hostproof"
)

// squatterLog is everything a squatter was sent.
type squatterLog struct {
	mu  gosync.Mutex
	buf bytes.Buffer
}

func (l *squatterLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *squatterLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// noToken fails when the squatter was offered a credential.
func (l *squatterLog) noToken(t *testing.T, token string) {
	t.Helper()
	s := l.String()
	if s == "" {
		t.Fatal("the squatter was never dialled")
	}
	for _, bad := range []string{token, "Authorization", "token="} {
		if strings.Contains(s, bad) {
			t.Fatalf("the squatter received %q", bad)
		}
	}
}

// rawSquatter is any process on a TCP port: it logs every byte it reads
// and answers the first request with a 200 and a made-up proof.
func rawSquatter(t *testing.T) (url string, log *squatterLog) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	log = &squatterLog{}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(io.TeeReader(c, log))
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					if line == "\r\n" {
						_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 64\r\n\r\n"+strings.Repeat("a", 64))
					}
				}
			}()
		}
	}()
	return "ws://" + ln.Addr().String() + "/v1/ws", log
}

// httpSquatter is a web server on the port: it logs each request's line
// and headers, answers the challenge with relay's answer (the real host's,
// when relay is its URL) or a made-up one, and 401 to anything else.
func httpSquatter(t *testing.T, relay string) (url string, log *squatterLog) {
	log = &squatterLog{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.Write(log)
		if r.URL.Path == hostproof.Path {
			if relay != "" {
				resp, err := http.Get("http" + strings.TrimPrefix(strings.TrimSuffix(relay, "/v1/ws"), "ws") + r.URL.RequestURI())
				if err == nil {
					defer resp.Body.Close()
					b, _ := io.ReadAll(resp.Body)
					_, _ = w.Write(b)
					return
				}
			}
			_, _ = io.WriteString(w, strings.Repeat("b", 64))
			return
		}
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/v1/ws", log
}

// staleDataDir is a data directory a host left on kill -9: its token, and
// an address file naming url, with no host holding its lock.
func staleDataDir(t *testing.T, url string) (dir, token string) {
	dir = t.TempDir()
	token = "stale-host-token-0123456789abcdef0123456789"
	for name, data := range map[string]string{"token": token, "address": url, "lock": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir, token
}

// unproven checks that err is an *UnprovenHostError naming dir, stale or
// not, and shows no token.
func unproven(t *testing.T, err error, dir string, stale bool, token string) {
	t.Helper()
	u, ok := asUnproven(err)
	if !ok {
		t.Fatalf("err = %T %v, want an *UnprovenHostError", err, err)
	}
	if u.Dir != dir || u.Stale != stale {
		t.Fatalf("%+v: want dir %s, stale %v", u, dir, stale)
	}
	want := "did not prove"
	if stale {
		want = "no host is running on " + dir + " (stale address file)"
	}
	if !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), token) {
		t.Fatalf("message %q lacks %q or shows the token", err, want)
	}
}

// A stale address file names a port some other process now holds: the
// client challenges it, never sends it the local token, and says no host
// is running there, on the one-shot path (lookout sessions) and the
// following client's (lookout attach) alike. Fails on the code that sent
// the token to whatever listened at the recorded address.
func TestStaleAddressNeverGetsTheLocalToken(t *testing.T) {
	isolateXDG(t)
	for name, squat := range map[string]func(*testing.T) (string, *squatterLog){
		"raw TCP":  rawSquatter,
		"net/http": func(t *testing.T) (string, *squatterLog) { return httpSquatter(t, "") },
	} {
		t.Run(name, func(t *testing.T) {
			url, log := squat(t)
			dir, token := staleDataDir(t, url)
			opts := Options{URL: url, DataDir: dir, HostsFile: "-"}
			if c, err := opts.Credential(); err != nil || c.Source != SourceLocalHost {
				t.Fatalf("the test's premise: the local token is chosen: %+v %v", c, err)
			}
			_, err := ListSessions(t.Context(), opts)
			unproven(t, err, dir, true, token)
			var ce *ConnectError
			if !errors.As(err, &ce) || !ce.Refused {
				t.Fatalf("not a refusal: %#v", err)
			}

			c := fastClient(t, Options{URL: url, DataDir: dir, HostsFile: "-", SessionID: "s"})
			p := waitFor(t, c.Client, "refused", func(p Picture) bool { return p.Freshness.State == Error })
			c.Stop()
			if p.Freshness.Reason != ReasonUnproven || !strings.Contains(p.Freshness.Err, "stale address file") {
				t.Fatalf("freshness %+v", p.Freshness)
			}
			log.noToken(t, token)
		})
	}
}

// While the real host runs elsewhere, a process on the address file's
// port cannot borrow the host's answer to the challenge (it is bound to
// the host's own URL): the token is withheld and the error says that
// process is not the host.
func TestSquatterCannotRelayTheHostsProof(t *testing.T) {
	isolateXDG(t)
	dir := t.TempDir()
	h := startHost(t, host.Options{DataDir: dir, DemoSession: true})
	url, log := httpSquatter(t, h.URL())
	if err := os.WriteFile(host.AddressPath(dir), []byte(url), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := ListSessions(t.Context(), Options{URL: url, DataDir: dir, HostsFile: "-"})
	unproven(t, err, dir, false, h.Token())
	if !strings.Contains(log.String(), hostproof.Path) {
		t.Fatal("the squatter was not challenged")
	}
	log.noToken(t, h.Token())
}

// The real host proves itself on the same path, over ws:// and wss://:
// the one-shot requests and a following client reach it with the token
// its data directory holds.
func TestTheLocalHostProvesItself(t *testing.T) {
	isolateXDG(t)
	cert, key, _ := hosttest.SelfSignedCert(t)
	for name, o := range map[string]host.Options{
		"ws":  {DataDir: t.TempDir(), DemoSession: true},
		"wss": {DataDir: t.TempDir(), DemoSession: true, TLSCert: cert, TLSKey: key},
	} {
		t.Run(name, func(t *testing.T) {
			h := startHost(t, o)
			url, err := host.RunningURL(o.DataDir)
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{URL: url, DataDir: o.DataDir, HostsFile: "-", TLSCAFile: cert}
			if c, err := opts.Credential(); err != nil || c.Source != SourceLocalHost {
				t.Fatalf("the local token is not chosen: %+v %v", c, err)
			}
			if ss, err := ListSessions(t.Context(), opts); err != nil || len(ss) != 1 {
				t.Fatalf("ListSessions: %v %v", ss, err)
			}
			opts.SessionID = h.DefaultSessionID()
			c := fastClient(t, opts)
			waitFor(t, c.Client, "live", isLive)
		})
	}
}

// A stale address nothing listens on is said to be stale, as a host that
// may yet come back: unreachable, not refused.
func TestStaleAddressWithNothingListening(t *testing.T) {
	isolateXDG(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "ws://" + ln.Addr().String() + "/v1/ws"
	ln.Close()
	dir, token := staleDataDir(t, url)
	_, err = ListSessions(t.Context(), Options{URL: url, DataDir: dir, HostsFile: "-"})
	unproven(t, err, dir, true, token)
	var ce *ConnectError
	if !errors.As(err, &ce) || ce.Refused {
		t.Fatalf("want an unreachable host: %#v", err)
	}
}
