package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
)

// A host killed with kill -9 leaves its address file; the next process on
// that port (the stranger) must get nothing. Every command, given no URL
// or the recorded one, says no host is running there (exit 3). Fails on
// the code that sent the token file to whatever held the recorded port.
func TestNoCommandSendsTheLocalTokenToAStaleAddress(t *testing.T) {
	freshXDG(t)
	s := newStranger(t)
	dir := host.DefaultDataDir()
	const token = "token-of-a-host-killed-by-kill-9-0123456789abcdef"
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"token": token, "address": s.URL()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"sessions", []string{"sessions"}},
		{"sessions URL", []string{"sessions", s.URL()}},
		{"sessions --data", []string{"sessions", "--data", dir}},
		{"watch", []string{"watch", "--session", "s", "--json", "--until-idle"}},
		{"export", []string{"export", s.URL(), "--session", "s", "--format", "json"}},
		{"send", []string{"send", "--session", "s", "hello"}},
		{"attach", []string{"attach"}},
		{"attach URL", []string{"attach", s.URL()}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runCLIWith(t, "", c.args...)
			s.check(t, c.name)
			if r.code != exitAuth {
				t.Fatalf("exit %d, want %d", r.code, exitAuth)
			}
			if !strings.Contains(r.errText, "no host is running on "+dir+" (stale address file)") {
				t.Fatalf("the refusal does not say the address is stale: %s", r.errText)
			}
			if strings.Contains(r.out+r.errText, token) {
				t.Fatal("the token shows in the output")
			}
		})
	}
}
