package natstest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// ProcNode is one nats-server running as a process of its own, so that a
// test can pause it (SIGSTOP) or kill it (SIGKILL) as a machine would.
type ProcNode struct {
	Name    string
	conf    string
	port    int
	mu      sync.Mutex
	cmd     *exec.Cmd
	stopped bool
}

// URL is the node's client URL.
func (n *ProcNode) URL() string { return fmt.Sprintf("nats://127.0.0.1:%d", n.port) }

// ServerBinary builds nats-server (the module's own version) into dir.
func ServerBinary(t testing.TB, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "nats-server")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/nats-io/nats-server/v2").CombinedOutput()
	if err != nil {
		t.Fatalf("natstest: go build nats-server: %v\n%s", err, out)
	}
	return bin
}

// ProcCluster runs size nats-server processes of bin routed to each other
// on loopback, each keeping its data below dir, and waits until every
// client port answers. They are killed when t ends.
func ProcCluster(t testing.TB, bin, dir string, size int) []*ProcNode {
	t.Helper()
	ports, err := freePorts(2 * size)
	if err != nil {
		t.Fatal(err)
	}
	var routes []string
	for i := range size {
		routes = append(routes, fmt.Sprintf("nats://127.0.0.1:%d", ports[size+i]))
	}
	nodes := make([]*ProcNode, size)
	for i := range size {
		name := fmt.Sprintf("p%d", i+1)
		conf := filepath.Join(dir, name+".conf")
		body := fmt.Sprintf("server_name: %s\nlisten: 127.0.0.1:%d\njetstream { store_dir: %q }\ncluster { name: chaos, listen: 127.0.0.1:%d, routes: [%s] }\n",
			name, ports[i], filepath.Join(dir, name), ports[size+i], strings.Join(routes, ", "))
		if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		nodes[i] = &ProcNode{Name: name, conf: conf, port: ports[i]}
		if err := nodes[i].start(bin); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nodes[i].Kill)
	}
	for _, n := range nodes {
		if err := n.waitListening(30 * time.Second); err != nil {
			t.Fatal(err)
		}
	}
	return nodes
}

func (n *ProcNode) start(bin string) error {
	cmd := exec.Command(bin, "-c", n.conf)
	if err := cmd.Start(); err != nil {
		return err
	}
	n.mu.Lock()
	n.cmd, n.stopped = cmd, false
	n.mu.Unlock()
	return nil
}

func (n *ProcNode) waitListening(d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", n.port), time.Second)
		if err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("natstest: %s does not listen: %w", n.Name, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Pid is the node's current process id.
func (n *ProcNode) Pid() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.cmd.Process.Pid
}

// Pause stops the process (SIGSTOP); Resume continues it.
func (n *ProcNode) Pause() { n.signal(syscall.SIGSTOP) }

// Resume continues a paused process.
func (n *ProcNode) Resume() { n.signal(syscall.SIGCONT) }

func (n *ProcNode) signal(sig syscall.Signal) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cmd != nil && !n.stopped {
		_ = n.cmd.Process.Signal(sig)
	}
}

// Kill kills the process (SIGKILL) and reaps it.
func (n *ProcNode) Kill() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cmd == nil || n.stopped {
		return
	}
	_ = n.cmd.Process.Signal(syscall.SIGCONT) // a paused process dies too, but reap it promptly
	_ = n.cmd.Process.Kill()
	_ = n.cmd.Wait()
	n.stopped = true
}

// Restart starts a killed node again on its ports and data.
func (n *ProcNode) Restart(bin string) error {
	if err := n.start(bin); err != nil {
		return err
	}
	return n.waitListening(30 * time.Second)
}

// ProcURLs joins the nodes' client URLs with commas.
func ProcURLs(nodes []*ProcNode) string {
	var us []string
	for _, n := range nodes {
		us = append(us, n.URL())
	}
	return strings.Join(us, ",")
}
