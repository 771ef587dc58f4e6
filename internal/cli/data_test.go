package cli

import (
	"strings"
	"testing"
)

// Every client command finds the token of a host started with
// `serve --data X` through --data X, with or without its URL, as attach
// does: no --token-file needed.
func TestClientCommandsTakeData(t *testing.T) {
	freshXDG(t)
	t.Setenv("LOOKOUT_TOKEN", "")
	h := cliHost(t)
	sid, data := h.DefaultSessionID(), h.DataDir()
	for _, args := range [][]string{
		{"sessions", "--data", data},
		{"sessions", h.URL(), "--data", data},
		{"watch", "--data", data, "--session", sid, "--until-idle"},
		{"export", h.URL(), "--data", data, "--session", sid},
		{"send", "--data", data, "--session", sid, "hello through --data"},
	} {
		if out, code := runCLI(t, args...); code != 0 {
			t.Fatalf("lookout %s: exit %d", strings.Join(args, " "), code)
		} else if args[0] == "sessions" && !strings.Contains(out, sid) {
			t.Fatalf("lookout %s: %q", strings.Join(args, " "), out)
		}
	}
	// Without --data the default data directory has no host: the token is
	// not found, and the host refuses (exit 3).
	if _, code := runCLI(t, "sessions", h.URL()); code != exitAuth {
		t.Fatalf("without --data: exit %d, want %d", code, exitAuth)
	}
}
