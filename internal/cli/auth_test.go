package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/sync"
)

// A token stored with `auth login` reaches its host, and only it;
// `auth status` lists the host and never the token; `auth logout`
// forgets it.
func TestAuthLoginTokenReachesItsHost(t *testing.T) {
	freshXDG(t)
	h := hostOnOtherData(t) // its token file is not in the default data directory
	s := newStranger(t)
	if r := runCLIWith(t, "", "sessions", h.Addr()); r.code != exitAuth {
		t.Fatalf("before login: exit %d, want %d", r.code, exitAuth)
	}
	r := runCLIWith(t, h.Token()+"\n", "auth", "login", "http://"+h.Addr())
	key := "ws://" + h.Addr()
	if r.code != 0 || !strings.Contains(r.out, key) || strings.Contains(r.out+r.errText, h.Token()) {
		t.Fatalf("auth login: exit %d: %q", r.code, r.out)
	}
	fi, err := os.Stat(sync.DefaultHostsFile())
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("hosts file: %v, %v", fi, err)
	}
	if di, err := os.Stat(filepath.Dir(sync.DefaultHostsFile())); err != nil || di.Mode().Perm() != 0o700 {
		t.Fatalf("hosts file directory: %v, %v", di, err)
	}
	if r := runCLIWith(t, "", "sessions", h.URL()); r.code != 0 || !strings.Contains(r.out, h.DefaultSessionID()) {
		t.Fatalf("after login: exit %d", r.code)
	}
	if r := runCLIWith(t, "", "sessions", s.URL()); r.code != exitAuth {
		t.Fatalf("stranger after login: exit %d", r.code)
	}
	s.check(t, "after login")
	// wss:// to the same host:port is another key: not sent.
	if k, _ := sync.HostKey("wss://" + h.Addr()); k == key {
		t.Fatal("ws and wss share a key")
	}
	st := runCLIWith(t, "", "auth", "status")
	if st.code != 0 || !strings.Contains(st.out, key+": token stored") || strings.Contains(st.out, h.Token()) {
		t.Fatalf("auth status: exit %d: %s", st.code, st.out)
	}
	if r := runCLIWith(t, "", "auth", "logout", h.URL()); r.code != 0 {
		t.Fatalf("auth logout: exit %d", r.code)
	}
	if r := runCLIWith(t, "", "sessions", h.URL()); r.code != exitAuth {
		t.Fatalf("after logout: exit %d, want %d", r.code, exitAuth)
	}
	if r := runCLIWith(t, "", "auth", "logout", h.URL()); r.code != exitFailure {
		t.Fatalf("second logout: exit %d", r.code)
	}
	// --token-file works too; a token in an argument is refused unseen.
	file := filepath.Join(t.TempDir(), "tok")
	if err := os.WriteFile(file, []byte(h.Token()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := runCLIWith(t, "", "auth", "login", h.URL(), "--token-file", file); r.code != 0 {
		t.Fatalf("login --token-file: exit %d", r.code)
	}
	if r := runCLIWith(t, "", "sessions", h.URL()); r.code != 0 {
		t.Fatalf("after login --token-file: exit %d", r.code)
	}
	for _, c := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{"auth", "login", h.URL(), "--token", "shown-in-history"}},
		{"", []string{"auth", "login", h.URL()}},
		{"two tokens\n", []string{"auth", "login", h.URL()}},
		{"x", []string{"auth", "login"}},
		{"x", []string{"auth", "login", "ftp://nowhere"}},
	} {
		if r := runCLIWith(t, c.stdin, c.args...); r.code != exitUsage || strings.Contains(r.out+r.errText, "shown-in-history") {
			t.Fatalf("%v: exit %d, want %d", c.args, r.code, exitUsage)
		}
	}
}

func TestCheckToken(t *testing.T) {
	for in, ok := range map[string]bool{
		"abc123\n": true, "  abc  ": true, "\r\nabc\r\n": true,
		"": false, " \n": false, "a b": false, "a\nb": false, "a\x1bb": false,
		strings.Repeat("x", maxTokenBytes+1): false,
	} {
		tok, err := checkToken([]byte(in))
		if (err == nil) != ok {
			t.Errorf("checkToken(%q): %v, want ok %v", in, err, ok)
		}
		if err != nil && strings.Contains(err.Error(), strings.TrimSpace(in)) && strings.TrimSpace(in) != "" {
			t.Errorf("checkToken(%q): the error quotes the token: %v", in, err)
		}
		if ok && string(tok) != strings.TrimSpace(in) {
			t.Errorf("checkToken(%q) = %q", in, string(tok))
		}
	}
}

// auth status warns about a hosts file or directory others may read.
func TestLooseMode(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "hosts.json")
	if err := os.WriteFile(file, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if w := looseMode(file, 0o600); w != "" {
		t.Fatalf("0600 file: %q", w)
	}
	if w := looseMode(dir, 0o700); w != "" {
		t.Fatalf("0700 directory: %q", w)
	}
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	if w := looseMode(file, 0o600); !strings.Contains(w, "chmod 600 "+file) {
		t.Fatalf("0644 file: %q", w)
	}
	if w := looseMode(filepath.Join(dir, "missing"), 0o600); w != "" {
		t.Fatalf("missing file: %q", w)
	}
}
