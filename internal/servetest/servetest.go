// Package servetest builds the lookout binary and starts `lookout serve`
// processes for tests: one way to build it once per test binary, to read
// the address a host reports, and to leave no process behind.
package servetest

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/internal/leakcheck"
)

// Module is the import path of the lookout command.
const Module = "github.com/lookout-sh/lookout"

var built struct {
	once sync.Once
	path string
	dir  string // the directory it was built in ("" when given)
	out  []byte
	err  error
}

// Binary returns the lookout binary, built once per test binary into a
// temporary directory that Remove (or leakcheck.Main) removes when the
// tests end. $LOOKOUT_E2E_BIN names
// a binary to run instead (an older build, for a before-and-after run).
func Binary(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		if p := os.Getenv("LOOKOUT_E2E_BIN"); p != "" {
			built.path = p
			return
		}
		dir, err := os.MkdirTemp("", "lookout-bin")
		if err != nil {
			built.err = err
			return
		}
		leakcheck.AtEnd(Remove)
		built.dir, built.path = dir, filepath.Join(dir, "lookout")
		built.out, built.err = exec.Command(goTool(), "build", "-o", built.path, Module).CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build %s: %v\n%s", Module, built.err, built.out)
	}
	return built.path
}

// Remove deletes the binary Binary built, for a TestMain that does not
// run leakcheck.Main. It is safe to call when nothing was built.
func Remove() {
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
}

// goTool is the go command that runs this test: `go test` puts its own
// GOROOT/bin first on PATH.
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "go"
}

// Options shape a host process.
type Options struct {
	// Env is the process's environment; nil is this process's.
	Env []string
	// Stderr receives the host's log; nil discards it.
	Stderr io.Writer
	// Line, when set, sees every line the host prints on stdout, the
	// address line included, on the goroutine that reads them.
	Line func(line string)
	// Wait bounds the wait for the address line (default 60 s).
	Wait time.Duration
}

// Proc is a running `lookout serve`.
type Proc struct {
	Cmd *exec.Cmd
	// URL is the WebSocket address the host reported ("ws://…/v1/ws").
	URL    string
	killed sync.Once
}

// Start runs `bin serve args...` and returns once it has reported its
// address. The process is killed when the test ends.
func Start(t testing.TB, bin string, o Options, args ...string) *Proc {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Env, cmd.Stderr = o.Env, o.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &Proc{Cmd: cmd}
	t.Cleanup(p.Kill)
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			if o.Line != nil {
				o.Line(line)
			}
			if _, u, ok := strings.Cut(line, "listening on "); ok && !sent {
				u, _, _ = strings.Cut(u, " ")
				addr <- u
				sent = true
			}
		}
		close(addr)
		// A line too long for the scanner ends it: drain the rest, so
		// that the host never blocks writing to a full pipe.
		_, _ = io.Copy(io.Discard, stdout)
	}()
	wait := o.Wait
	if wait <= 0 {
		wait = time.Minute
	}
	select {
	case u, ok := <-addr:
		if !ok {
			t.Fatalf("lookout serve %s exited without reporting its address", strings.Join(args, " "))
		}
		p.URL = u
	case <-time.After(wait):
		t.Fatalf("lookout serve %s did not report its address within %v", strings.Join(args, " "), wait)
	}
	return p
}

// Addr is the host:port of URL.
func (p *Proc) Addr() string {
	u := p.URL
	if _, rest, ok := strings.Cut(u, "://"); ok {
		u = rest
	}
	u, _, _ = strings.Cut(u, "/")
	return u
}

// Kill ends the process with SIGKILL and reaps it, unless a test already
// did (Cmd.ProcessState set); it may be called more than once.
func (p *Proc) Kill() {
	p.killed.Do(func() {
		if p.Cmd.ProcessState != nil {
			return
		}
		_ = p.Cmd.Process.Kill()
		_ = p.Cmd.Wait()
	})
}
