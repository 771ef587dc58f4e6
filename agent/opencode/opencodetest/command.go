package opencodetest

import (
	"bufio"
	"io"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// Server is an `opencode serve` started by Serve.
type Server struct {
	// URL is the server's base URL, "http://127.0.0.1:PORT".
	URL string
	// Cmd is the running server; Kill ends it.
	Cmd *exec.Cmd
	// Exited is closed once the server has exited.
	Exited chan struct{}
}

// Kill ends the server (SIGKILL to its process group) and waits for it.
func (s *Server) Kill() {
	_ = agenttest.KillGroup(s.Cmd)
	<-s.Exited
}

// Serve starts `opencode serve --hostname 127.0.0.1 --port PORT` ("" or
// "0" picks a free port) with env in dir, waits until it says where it listens, and
// returns it. It fails t if the server does not come up within a minute.
func Serve(t testing.TB, bin string, env []string, dir string, port string) *Server {
	t.Helper()
	if port == "" || port == "0" {
		// Not 0: OpenCode would take 4096 when free, which another test's
		// server may want back after a restart.
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port = strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
		l.Close()
	}
	cmd, _ := agenttest.Command(t, bin, env, dir, "serve", "--hostname", "127.0.0.1", "--port", port)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &lockedWriter{w: &stderr}
	if err := cmd.Start(); err != nil {
		t.Fatalf("opencodetest: start %s serve: %v", bin, err)
	}
	s := &Server{Cmd: cmd, Exited: make(chan struct{})}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if _, u, ok := strings.Cut(sc.Text(), "listening on "); ok {
				select {
				case urls <- strings.TrimSpace(u):
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, out)
	}()
	go func() {
		_ = cmd.Wait()
		close(s.Exited)
	}()
	select {
	case s.URL = <-urls:
		return s
	case <-s.Exited:
		t.Fatalf("opencodetest: opencode serve exited before listening: %s", stderr.String())
	case <-time.After(time.Minute):
		t.Fatalf("opencodetest: opencode serve did not say where it listens within a minute")
	}
	return nil
}

// lockedWriter lets the server's stderr be read while it is written.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
