// Package natstest runs NATS servers with JetStream inside a test process:
// one server, or a cluster on loopback ports, each keeping its data in a
// directory the caller gives (usually t.TempDir()).
package natstest

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/internal/leakcheck"
	"github.com/nats-io/nats-server/v2/server"
)

// A stopped server leaves these behind for a while (its file stores'
// state flushers) or for good (a process-wide registry).
func init() {
	leakcheck.Ignore(
		"github.com/nats-io/nats-server/v2/server.(*fileStore).flushStreamStateLoop",
		"github.com/nats-io/nats-server/v2/server/ats.Register.func1",
	)
}

// Node is one running server.
type Node struct {
	opts *server.Options
	srv  *server.Server
}

// URL is the node's client URL.
func (n *Node) URL() string { return fmt.Sprintf("nats://127.0.0.1:%d", n.opts.Port) }

// Kill stops the node at once, as a machine that dies would.
func (n *Node) Kill() {
	n.srv.Shutdown()
	n.srv.WaitForShutdown()
}

// Restart starts a killed node again on its ports and data directory,
// and waits until it has caught up with the cluster's JetStream state.
func (n *Node) Restart() error {
	s, err := run(n.opts)
	if err != nil {
		return err
	}
	n.srv = s
	deadline := time.Now().Add(30 * time.Second)
	for n.opts.Cluster.Port != 0 && !s.JetStreamIsCurrent() {
		if time.Now().After(deadline) {
			return fmt.Errorf("natstest: node %s did not catch up", n.opts.ServerName)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

// Server is the node's server.
func (n *Node) Server() *server.Server { return n.srv }

func run(opts *server.Options) (*server.Server, error) {
	o := *opts
	s, err := server.NewServer(&o)
	if err != nil {
		return nil, err
	}
	go s.Start()
	if !s.ReadyForConnections(20 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("natstest: server %s not ready", opts.ServerName)
	}
	return s, nil
}

// Start runs one JetStream server keeping its data in dir. It is shut down
// when t ends.
func Start(t testing.TB, dir string) *Node {
	t.Helper()
	n, err := start(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Kill)
	return n
}

func start(dir string) (*Node, error) {
	port, err := freePorts(1)
	if err != nil {
		return nil, err
	}
	opts := &server.Options{
		ServerName: "solo", Host: "127.0.0.1", Port: port[0],
		JetStream: true, StoreDir: dir, NoLog: true, NoSigs: true,
	}
	s, err := run(opts)
	if err != nil {
		return nil, err
	}
	return &Node{opts: opts, srv: s}, nil
}

// Cluster runs size JetStream servers routed to each other on loopback
// ports, each with a directory of its own below dir, and waits until
// JetStream has a meta leader and places a stream on every node. They are
// shut down when t ends.
func Cluster(t testing.TB, dir string, size int) []*Node {
	t.Helper()
	ports, err := freePorts(2 * size)
	if err != nil {
		t.Fatal(err)
	}
	var routes []string
	for i := range size {
		routes = append(routes, fmt.Sprintf("nats://127.0.0.1:%d", ports[size+i]))
	}
	nodes := make([]*Node, size)
	var wg sync.WaitGroup
	errs := make([]error, size)
	for i := range size {
		opts := &server.Options{
			ServerName: fmt.Sprintf("n%d", i+1), Host: "127.0.0.1", Port: ports[i],
			JetStream: true, StoreDir: filepath.Join(dir, fmt.Sprintf("n%d", i+1)), NoLog: true, NoSigs: true,
			Cluster: server.ClusterOpts{Name: "lookout", Host: "127.0.0.1", Port: ports[size+i]},
			Routes:  server.RoutesFromStr(strings.Join(routes, ",")),
		}
		nodes[i] = &Node{opts: opts}
		wg.Add(1)
		go func() {
			defer wg.Done()
			nodes[i].srv, errs[i] = run(opts)
		}()
	}
	wg.Wait()
	for i, n := range nodes {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		t.Cleanup(func() {
			if n.srv.Running() {
				n.Kill()
			}
		})
	}
	deadline := time.Now().Add(30 * time.Second)
	for !hasMetaLeader(nodes) {
		if time.Now().After(deadline) {
			t.Fatal("natstest: the cluster elected no JetStream meta leader")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := WaitPlaceable(URLs(nodes), size, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	return nodes
}

// hasMetaLeader reports whether a node leads JetStream's meta group and
// knows every node as a peer (placement of replicated streams needs them).
func hasMetaLeader(nodes []*Node) bool {
	for _, n := range nodes {
		if n.srv.Running() && n.srv.JetStreamIsLeader() && len(n.srv.JetStreamClusterPeers()) == len(nodes) {
			return true
		}
	}
	return false
}

// URLs joins the nodes' client URLs with commas, as NATS clients take them.
func URLs(nodes []*Node) string {
	var us []string
	for _, n := range nodes {
		us = append(us, n.URL())
	}
	return strings.Join(us, ",")
}

var shared struct {
	once sync.Once
	node *Node
	err  error
}

// Shared is one server for the whole test process, started on first use
// with its data in a temporary directory; it lives until the tests end
// (leakcheck.Main stops it and removes its directory). Tests sharing it keep apart by journal namespace.
func Shared() (string, error) {
	shared.once.Do(func() {
		dir, err := os.MkdirTemp("", "lookout-natstest-")
		if err != nil {
			shared.err = err
			return
		}
		shared.node, shared.err = start(dir)
		leakcheck.AtEnd(func() {
			if shared.node != nil {
				shared.node.Kill()
			}
			os.RemoveAll(dir)
		})
	})
	if shared.err != nil {
		return "", shared.err
	}
	return shared.node.URL(), nil
}

func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
