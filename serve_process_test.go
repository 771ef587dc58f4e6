package main

import (
	"bufio"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildLookout builds the lookout binary into a temporary directory.
func buildLookout(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "lookout")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startServe runs `bin serve args...` with env (nil: this process's) and
// returns the process and the URL it reports listening on; the process is
// killed when the test ends.
func startServe(t testing.TB, bin string, env []string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	return startServeLogging(t, bin, env, nil, args...)
}

// startServeLogging is startServe with the process's log (stderr) written
// to log.
func startServeLogging(t testing.TB, bin string, env []string, log io.Writer, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Env = env
	cmd.Stderr = log
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if _, url, ok := strings.Cut(sc.Text(), "listening on "); ok {
			url, _, _ = strings.Cut(url, " ")
			go func() { _, _ = io.Copy(io.Discard, stdout) }()
			return cmd, url
		}
	}
	t.Fatal("lookout serve did not report its address")
	return nil, ""
}
