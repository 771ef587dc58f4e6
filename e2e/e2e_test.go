// Package e2e runs the built lookout binary in a real terminal (tmux)
// against a real host process: the whole stack, as a user sees it.
package e2e

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/internal/servetest"
)

// waitLimit bounds every wait for the screen; generous because CI machines
// are slow, and no timing is asserted.
const waitLimit = 90 * time.Second

type term struct {
	t      *testing.T
	socket string
}

func (tm *term) tmux(args ...string) string {
	tm.t.Helper()
	cmd := exec.Command("tmux", append([]string{"-L", tm.socket, "-f", "/dev/null"}, args...)...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	out, err := cmd.CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (tm *term) screen() string { return tm.tmux("capture-pane", "-p", "-t", "e2e") }

// keys sends tmux key names (Enter, M-a, Home, ...).
func (tm *term) keys(k ...string) { tm.tmux(append([]string{"send-keys", "-t", "e2e"}, k...)...) }

// typeText types literal text.
func (tm *term) typeText(s string) { tm.tmux("send-keys", "-t", "e2e", "-l", s) }

// waitFor polls the screen until cond holds.
func (tm *term) waitFor(what string, cond func(string) bool) string {
	tm.t.Helper()
	deadline := time.Now().Add(waitLimit)
	var s string
	for time.Now().Before(deadline) {
		s = tm.screen()
		if cond(s) {
			return s
		}
		time.Sleep(100 * time.Millisecond)
	}
	tm.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
	return ""
}

func (tm *term) waitText(sub string) string {
	tm.t.Helper()
	return tm.waitFor(fmt.Sprintf("%q", sub), func(s string) bool { return strings.Contains(s, sub) })
}

// host is a `lookout serve` process.
type hostProc struct {
	*servetest.Proc
}

func startHost(t *testing.T, bin, addr, data string, env []string, extra ...string) *hostProc {
	t.Helper()
	args := append([]string{"--addr", addr, "--data", data, "--pace", "5ms"}, extra...)
	return &hostProc{servetest.Start(t, bin, servetest.Options{Env: env, Stderr: os.Stderr, Wait: waitLimit}, args...)}
}

// kill ends the host abruptly (SIGKILL), as a crash would.
func (h *hostProc) kill() { h.Kill() }

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestTerminal drives `lookout attach` in tmux against `lookout serve`:
// pick the session, send a prompt and see the streamed answer, approve a
// tool, go to the session's start with Home, then kill the host and
// watch the freshness banners until it is back and live.
func TestTerminal(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir, bin, env := setup(t)
	data := filepath.Join(dir, "host")
	addr := freeAddr(t)
	h := startHost(t, bin, addr, data, env)
	tm := startTerm(t, dir, env, fmt.Sprintf("%s attach ws://%s --data %s --tail 6 --theme dark --log %s",
		bin, addr, data, filepath.Join(dir, "client.log")))

	// The picker lists the demo session; enter opens it.
	tm.waitText("Sessions on " + addr)
	tm.keys("Enter")
	// The composer's prompt shows only once the session view replaced the
	// picker (whose row also reads "Lookout demo · idle").
	tm.waitFor("the demo session, live", func(s string) bool {
		return strings.Contains(s, "Lookout demo") && strings.Contains(s, "idle") && strings.Contains(s, "Write a prompt") &&
			!strings.Contains(s, "Connecting")
	})

	// A prompt streams its answer; the tool waits for approval.
	tm.typeText("e2e tool check")
	tm.keys("Enter")
	tm.waitText("Approval needed")
	tm.keys("M-a")
	tm.waitFor("the tool to finish and the answer to stream", func(s string) bool {
		return strings.Contains(s, "exit 0") || strings.Contains(s, "That is all for now.")
	})
	tm.waitFor("the turn to end", func(s string) bool {
		return strings.Contains(s, "That is all for now.") && strings.Contains(s, "idle") && !strings.Contains(s, "Approval needed")
	})

	// Home: the session opened with a 6-item tail, so Home fetches the
	// session's start, and the true beginning shows.
	tm.keys("Home")
	for i := 0; ; i++ {
		s := tm.screen()
		if strings.Contains(s, "beginning of session") && strings.Contains(s, "Give me a tour of this project") {
			break
		}
		if i > 300 {
			t.Fatalf("older history never reached the beginning; screen:\n%s", s)
		}
		time.Sleep(200 * time.Millisecond)
		tm.keys("Home")
	}

	// Kill the host: the banner says so; cached history stays readable.
	tm.keys("End")
	h.kill()
	s := tm.waitText("Reconnecting to host")
	if !strings.Contains(s, "That is all for now.") {
		t.Fatalf("history vanished while reconnecting:\n%s", s)
	}
	// The restarted host answers slowly (--latency), so the catch-up is
	// long enough to see: "Updating messages" while connected but not yet
	// current, then the live state.
	startHost(t, bin, addr, data, env, "--latency", "700ms")
	s = tm.waitText("Updating messages")
	if !strings.Contains(s, "That is all for now.") {
		t.Fatalf("history vanished while updating:\n%s", s)
	}
	tm.waitFor("the live state after the restart", func(s string) bool {
		return !strings.Contains(s, "Reconnecting") && !strings.Contains(s, "Updating") && strings.Contains(s, "idle")
	})

	// Live again: a new prompt streams.
	tm.typeText("after the restart")
	tm.keys("Enter")
	// The answer's heading repeats the prompt (headings show no "##").
	tm.waitFor("the answer's heading", func(s string) bool { return strings.Count(s, "after the restart") >= 2 })
	tm.waitFor("the second turn to end", func(s string) bool {
		return strings.Contains(s, "That is all for now.") && strings.Contains(s, "idle")
	})

	// q outside the composer quits.
	tm.keys("Tab", "q")
	tm.waitText("LOOKOUT-EXITED 0")
}

// TestEmbeddedDefault runs `lookout` with no arguments: the embedded
// durable host with the demo session, attached through a real WebSocket.
func TestEmbeddedDefault(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir, bin, env := setup(t)
	tm := startTerm(t, dir, env, fmt.Sprintf("%s --pace 2ms --theme light --log %s", bin, filepath.Join(dir, "client.log")))
	tm.waitFor("the demo session", func(s string) bool {
		return strings.Contains(s, "Lookout demo") && strings.Contains(s, "embedded host 127.0.0.1:") && strings.Contains(s, "idle")
	})
	tm.typeText("hello from the default path")
	tm.keys("Enter")
	tm.waitFor("the answer's heading", func(s string) bool { return strings.Count(s, "hello from the default path") >= 2 })
	tm.waitFor("the turn to end", func(s string) bool {
		return strings.Contains(s, "That is all for now.") && strings.Contains(s, "idle")
	})
	// A second `lookout` on the same machine finds the running host (its
	// data directory is taken) and attaches to it: the same transcript.
	t.Run("second", func(t *testing.T) {
		tm2 := startTerm(t, dir, env, fmt.Sprintf("%s --theme dark", bin))
		tm2.waitText("Sessions on 127.0.0.1:")
		tm2.keys("Enter")
		tm2.waitFor("the shared session", func(s string) bool {
			return strings.Contains(s, "hello from the default path") && strings.Contains(s, "idle") && strings.Contains(s, "Write a prompt")
		})
		tm2.keys("C-c", "C-c")
		tm2.waitText("LOOKOUT-EXITED 0")
	})
	// ctrl+c twice quits and stops the embedded host; its journal is in the
	// XDG state directory.
	tm.keys("C-c", "C-c")
	tm.waitText("LOOKOUT-EXITED 0")
	if !fileExists(filepath.Join(dir, "state", "lookout", "journal.db")) {
		t.Fatal("the embedded host kept no journal under XDG_STATE_HOME")
	}
}

// setup builds lookout (once) and returns a temp dir, the binary and an
// environment whose XDG directories live in the temp dir.
// LOOKOUT_E2E_BIN names a binary to run instead, such as an older build
// for a before-and-after benchmark.
func setup(t *testing.T) (dir, bin string, env []string) {
	t.Helper()
	bin = servetest.Binary(t)
	dir = t.TempDir()
	env = append(os.Environ(),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"XDG_CACHE_HOME="+filepath.Join(dir, "cache"),
		"XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"LOOKOUT_TOKEN=",
	)
	return dir, bin, env
}

// startTerm runs command in a detached tmux session (100x30) on a private
// server, with env's XDG directories, in dir (so a file the UI writes,
// such as an export, lands there and not in the source tree).
func startTerm(t *testing.T, dir string, env []string, command string) *term {
	t.Helper()
	return startTermSized(t, "", dir, env, command, 100, 30)
}

// startNamedTerm is startTerm for a test that runs more than one terminal:
// each name gets its own tmux server.
func startNamedTerm(t *testing.T, name, dir string, env []string, command string) *term {
	t.Helper()
	return startTermSized(t, name, dir, env, command, 100, 30)
}

// startTermSized is startTerm in a terminal of width by height cells, on
// the tmux server of name ("" for the test's own).
func startTermSized(t *testing.T, name, dir string, env []string, command string, width, height int) *term {
	t.Helper()
	tm := &term{t: t, socket: fmt.Sprintf("lookout-e2e-%d-%s%s", os.Getpid(), strings.ReplaceAll(t.Name(), "/", "-"), name)}
	var envs []string
	for _, kv := range env {
		if strings.HasPrefix(kv, "XDG_") {
			envs = append(envs, kv)
		}
	}
	shell := fmt.Sprintf("env %s %s; echo LOOKOUT-EXITED $?; sleep 600", strings.Join(envs, " "), command)
	tm.tmux("new-session", "-d", "-s", "e2e", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), "-c", dir, shell)
	t.Cleanup(func() {
		_ = exec.Command("tmux", "-L", tm.socket, "kill-server").Run()
		if t.Failed() {
			if b, err := os.ReadFile(filepath.Join(dir, "client.log")); err == nil {
				t.Logf("client log (tail):\n%s", tail(string(b), 60))
			}
		}
	})
	return tm
}

func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func TestMain(m *testing.M) {
	code := m.Run()
	servetest.Remove()
	os.Exit(code)
}
