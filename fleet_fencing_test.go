package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/internal/natstest"
	"github.com/lookout-sh/lookout/model"
)

// fleetProc is one `lookout serve --journal` process of a test fleet; its
// log is serve.log in its data directory, printed when the test fails.
type fleetProc struct {
	id, url, token string
	bin, dir       string
	args           []string
	cmd            *exec.Cmd
	paused, dead   bool
	logged         bool
}

// startFleetHost runs a fleet host process on the cluster at urls, in
// journal namespace ns.
func startFleetHost(t testing.TB, bin, urls, ns, id string, ttl time.Duration) *fleetProc {
	t.Helper()
	p := &fleetProc{id: id, bin: bin, dir: t.TempDir(), args: []string{"--journal", urls, "--journal-namespace", ns,
		"--journal-replicas", "3", "--fleet-host", id, "--fleet-lease-ttl", ttl.String(), "--pace", "20ms", "--demo-session=false"}}
	p.start(t)
	return p
}

// start runs the process (again, after kill: same data, same fleet id).
func (p *fleetProc) start(t testing.TB) {
	t.Helper()
	if !p.logged {
		p.logged = true
		t.Cleanup(func() {
			if t.Failed() {
				b, _ := os.ReadFile(filepath.Join(p.dir, "serve.log"))
				t.Logf("host %s's log:\n%s", p.id, tail(b, 6000))
			}
		})
	}
	log, err := os.OpenFile(filepath.Join(p.dir, "serve.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { log.Close() })
	cmd, url := startServeLogging(t, p.bin, nil, log, append([]string{"--addr", "127.0.0.1:0", "--data", p.dir}, p.args...)...)
	tok, err := os.ReadFile(filepath.Join(p.dir, "token"))
	if err != nil {
		t.Fatal(err)
	}
	p.cmd, p.url, p.token, p.dead, p.paused = cmd, url, strings.TrimSpace(string(tok)), false, false
}

// tail is the last n bytes of b.
func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

func (p *fleetProc) pause()  { _ = p.cmd.Process.Signal(syscall.SIGSTOP); p.paused = true }
func (p *fleetProc) resume() { _ = p.cmd.Process.Signal(syscall.SIGCONT); p.paused = false }
func (p *fleetProc) kill() {
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
	p.dead = true
}

func (p *fleetProc) dial(t *testing.T) *hosttest.Client {
	t.Helper()
	c, _, err := hosttest.DialURL(p.url, http.Header{"Authorization": {"Bearer " + p.token}})
	if err != nil {
		t.Fatalf("dial %s: %v", p.id, err)
	}
	t.Cleanup(c.Close)
	return c
}

// writerOn is the writer host p's session/list names for sid.
func writerOn(t *testing.T, p *fleetProc, sid string) string {
	t.Helper()
	c := p.dial(t)
	defer c.Close()
	var res struct {
		Sessions []struct{ SessionID, Host string }
	}
	c.MustCall(t, "session/list", map[string]any{}, &res)
	for _, s := range res.Sessions {
		if s.SessionID == sid {
			return s.Host
		}
	}
	return ""
}

// settled waits until commandId cid's turn ended, through p, and returns
// its turn status.
func settled(t *testing.T, p *fleetProc, sid, cid string) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		c, _, err := hosttest.DialURL(p.url, http.Header{"Authorization": {"Bearer " + p.token}})
		if err == nil {
			res, rerr, err := c.Call("command/replay", map[string]any{"sessionId": sid, "commandId": cid})
			c.Close()
			var r struct{ State, TurnStatus string }
			if err == nil && rerr == nil && json.Unmarshal(res, &r) == nil && r.State == "settled" && r.TurnStatus != "" {
				return r.TurnStatus
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("command %s never settled through %s", cid, p.id)
	return ""
}

// journalChain is what the stream holds of one session: each commit's
// writer and event seqs, in stream order.
type journalCommit struct {
	at          uint64
	writer      string
	claim       bool
	first, last int64
}

func readChain(t *testing.T, urls, ns, sid string) []journalCommit {
	t.Helper()
	var err error
	for attempt := range 5 {
		if attempt > 0 {
			time.Sleep(2 * time.Second) // a cluster just healed may not answer yet
		}
		var out []journalCommit
		if out, err = readChainOnce(urls, ns, sid); err == nil {
			if len(out) == 0 {
				t.Fatalf("no commit of session %s in the stream", sid)
			}
			return out
		}
	}
	t.Fatalf("reading session %s's chain of commits: %v", sid, err)
	return nil
}

// readChainOnce reads every commit of session sid, or fails: a read that
// fails midway never passes for the chain's end.
func readChainOnce(urls, ns, sid string) ([]journalCommit, error) {
	nc, err := nats.Connect(urls)
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	op := func() (context.Context, context.CancelFunc) {
		return context.WithTimeout(context.Background(), 10*time.Second)
	}
	ctx, cancel := op()
	stream, err := js.Stream(ctx, ns+"_journal")
	cancel()
	if err != nil {
		return nil, fmt.Errorf("look up the journal stream: %w", err)
	}
	var out []journalCommit
	for seq := uint64(1); ; {
		ctx, cancel := op()
		m, err := stream.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(ns+".j."+sid))
		cancel()
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return out, nil // no message on the subject at or after seq
		}
		if err != nil {
			return nil, fmt.Errorf("read the commit at or after stream seq %d: %w", seq, err)
		}
		num := func(k string) int64 { n, _ := strconv.ParseInt(m.Header.Get(k), 10, 64); return n }
		out = append(out, journalCommit{at: m.Sequence, writer: m.Header.Get("Lookout-Writer"), claim: m.Header.Get("Lookout-Claim") == "1",
			first: num("Lookout-Seq-First"), last: num("Lookout-Seq-Last")})
		seq = m.Sequence + 1
	}
}

// checkOneChain fails unless the session's journal is one writer's chain
// at a time: event seqs ascend across commits, and after a claim only its
// claimant's commits follow until the next claim.
func checkOneChain(t *testing.T, chain []journalCommit) {
	t.Helper()
	var high int64
	owner := ""
	for _, c := range chain {
		if c.claim {
			owner = c.writer
		} else if owner != "" && c.writer != owner {
			t.Fatalf("commit at stream seq %d written by %s after %s claimed the session", c.at, c.writer, owner)
		}
		if c.last > 0 {
			if c.first <= high {
				t.Fatalf("commit at stream seq %d (writer %s) holds seqs %d-%d after seq %d: two chains", c.at, c.writer, c.first, c.last, high)
			}
			high = c.last
		}
	}
}

func writerHost(w string) string { h, _, _ := strings.Cut(w, "/"); return h }

// The reproduction: a fleet host paused (SIGSTOP) past its lease
// loses its sessions to another host; resumed, it must step down and
// forward, never write again. Before fencing it kept writing: both hosts'
// commits were accepted and the journal held two chains.
func TestFleetHostPausedPastItsLeaseStepsDown(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a 3-node NATS cluster and two host processes")
	}
	urls := natstest.URLs(natstest.Cluster(t, t.TempDir(), 3))
	bin := buildLookout(t)
	const ttl = 2 * time.Second
	a := startFleetHost(t, bin, urls, "lookout", "A", ttl)
	b := startFleetHost(t, bin, urls, "lookout", "B", ttl)

	ca := a.dial(t)
	var created struct{ SessionID string }
	ca.MustCall(t, "session/create", map[string]any{"title": "paused"}, &created)
	sid := created.SessionID
	if _, _, err := ca.Submit(sid, "before-pause", "hello before the pause"); err != nil {
		t.Fatal(err)
	}
	if st := settled(t, a, sid, "before-pause"); st != model.StatusCompleted {
		t.Fatalf("the first turn ended %s", st)
	}
	ca.Close()

	t.Logf("%v: first turn done", time.Now().Format("15:04:05.000"))
	// Pause A past its lease: B takes the session over.
	a.pause()
	deadline := time.Now().Add(30 * time.Second)
	for writerOn(t, b, sid) != "B" {
		if time.Now().After(deadline) {
			a.resume()
			t.Fatal("B never took over the session of the paused A")
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("%v: B writes", time.Now().Format("15:04:05.000"))
	time.Sleep(ttl) // well past A's lease
	a.resume()

	// A prompt through each host: both run once, on B.
	for i, p := range []*fleetProc{a, b, a} {
		cid := fmt.Sprintf("after-%d-%s", i, p.id)
		deadline := time.Now().Add(30 * time.Second)
		for {
			c := p.dial(t)
			_, _, err := c.Submit(sid, cid, "hello after the pause through "+p.id)
			c.Close()
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("submit through %s: %v", p.id, err)
			}
			time.Sleep(200 * time.Millisecond) // backpressured while the writer moves
		}
		t.Logf("%v: %s admitted", time.Now().Format("15:04:05.000"), cid)
		if st := settled(t, p, sid, cid); st != model.StatusCompleted {
			t.Fatalf("turn %s ended %s", cid, st)
		}
		t.Logf("%v: %s settled", time.Now().Format("15:04:05.000"), cid)
	}
	for _, p := range []*fleetProc{a, b} {
		if w := writerOn(t, p, sid); w != "B" {
			t.Fatalf("%s's session/list names %q as the writer, want B", p.id, w)
		}
	}

	chain := readChain(t, urls, "lookout", sid)
	checkOneChain(t, chain)
	var claimedByB bool
	for _, c := range chain {
		if c.claim && writerHost(c.writer) == "B" {
			claimedByB = true
		}
		if claimedByB && writerHost(c.writer) == "A" {
			t.Fatalf("A wrote commit %d after B claimed the session", c.at)
		}
	}
	if !claimedByB {
		t.Fatal("B never claimed the session's journal")
	}

	// Both hosts serve the same history: every prompt exactly once.
	var snaps [2]*model.Snapshot
	for i, p := range []*fleetProc{a, b} {
		sub, err := p.dial(t).Subscribe(sid, "", "", 0)
		if err != nil || sub.Snapshot == nil {
			t.Fatalf("subscribe through %s: %v", p.id, err)
		}
		snaps[i] = sub.Snapshot
	}
	prompts := map[string]int{}
	for _, raw := range snaps[1].Items {
		var it struct{ Kind, CommandID string }
		if err := json.Unmarshal(raw, &it); err != nil {
			t.Fatal(err)
		}
		if it.Kind == model.KindUserMessage {
			prompts[it.CommandID]++
		}
	}
	for _, cid := range []string{"before-pause", "after-0-A", "after-1-B", "after-2-A"} {
		if prompts[cid] != 1 {
			t.Fatalf("prompt %s is in the history %d times (%v)", cid, prompts[cid], prompts)
		}
	}
	ja, _ := json.Marshal(snaps[0].Items)
	jb, _ := json.Marshal(snaps[1].Items)
	if string(ja) != string(jb) {
		t.Fatal("A and B serve different histories of the session")
	}
}

// dialOnce dials p without failing the test: p may be down.
func dialOnce(p *fleetProc) (*hosttest.Client, *http.Response, error) {
	return hosttest.DialURL(p.url, http.Header{"Authorization": {"Bearer " + p.token}})
}
