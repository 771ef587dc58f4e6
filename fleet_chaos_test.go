package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/lookout-sh/lookout/internal/natstest"
	"github.com/lookout-sh/lookout/model"
)

// TestFleetChaosSchedules runs random fault schedules against a real fleet:
// a 3-node NATS cluster of nats-server processes and 2-3 `lookout serve
// --journal` processes. Faults are pauses (SIGSTOP) past the lease and
// kills (SIGKILL) of hosts, and pauses and kills of NATS nodes (one at a
// time, so the cluster keeps its quorum), while prompts go in through
// random hosts. Once every fault is healed the history checker demands:
// the session's journal is one writer's chain at a time, every prompt a
// client had admitted is in the history exactly once, and every host's
// paged fold (what a resuming client folds) is byte-equal.
//
//	LOOKOUT_FLEET_CHAOS_SCHEDULES=N  how many schedules (default 2)
//	LOOKOUT_FLEET_CHAOS_SEED=S       the first schedule's seed (default: from the clock)
func TestFleetChaosSchedules(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a NATS cluster and host processes")
	}
	n := 2
	if s := os.Getenv("LOOKOUT_FLEET_CHAOS_SCHEDULES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatalf("LOOKOUT_FLEET_CHAOS_SCHEDULES=%q: %v", s, err)
		}
	}
	first := uint64(time.Now().UnixNano() % 1_000_000)
	if s := os.Getenv("LOOKOUT_FLEET_CHAOS_SEED"); s != "" {
		var err error
		if first, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("LOOKOUT_FLEET_CHAOS_SEED=%q: %v", s, err)
		}
	}
	dir := t.TempDir()
	natsBin := natstest.ServerBinary(t, dir)
	nodes := natstest.ProcCluster(t, natsBin, dir, 3)
	w := &chaosWorld{natsBin: natsBin, nodes: nodes, urls: natstest.ProcURLs(nodes), bin: buildLookout(t)}
	for i := range n {
		if d, ok := t.Deadline(); ok && time.Until(d) < chaosScheduleRoom {
			// A timeout's panic would skip every cleanup and leave the
			// cluster's processes behind: stop between schedules instead.
			t.Logf("stopped after %d of %d schedules: the test's deadline is near", i, n)
			break
		}
		seed := first + uint64(i)
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Logf("replay with LOOKOUT_FLEET_CHAOS_SEED=%d LOOKOUT_FLEET_CHAOS_SCHEDULES=1", seed)
				}
			}()
			w.run(t, seed)
		})
	}
}

type chaosWorld struct {
	natsBin, urls, bin string
	nodes              []*natstest.ProcNode
	// left is a node a failed schedule left paused or killed.
	left       *natstest.ProcNode
	leftKilled bool
}

func (w *chaosWorld) healLeftovers(t *testing.T) {
	t.Helper()
	if w.left != nil {
		w.heal(t, w.left, w.leftKilled)
		w.left = nil
	}
}

const chaosTTL = 2 * time.Second

// chaosScheduleRoom is the time left before the test's deadline under
// which no new schedule starts (a schedule takes about a minute).
const chaosScheduleRoom = 4 * time.Minute

// run plays one schedule and checks its history.
func (w *chaosWorld) run(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	ns := fmt.Sprintf("chaos%d", seed)
	w.healLeftovers(t) // a schedule that failed may have left a node down
	w.waitJetStream(t)
	hosts := make([]*fleetProc, 2+rng.IntN(2))
	for i := range hosts {
		hosts[i] = startFleetHost(t, w.bin, w.urls, ns, fmt.Sprintf("H%d", i+1), chaosTTL)
	}
	defer func() {
		for _, h := range hosts {
			if h.paused {
				h.resume()
			}
		}
	}()
	sid := w.createSession(t, hosts[rng.IntN(len(hosts))])
	var cids []string
	var downNode *natstest.ProcNode
	nodeKilled := false
	defer func() {
		if downNode != nil {
			w.left, w.leftKilled = downNode, nodeKilled
		}
	}()
	steps := 6 + rng.IntN(8)
	for step := range steps {
		live := liveHosts(hosts)
		switch k := rng.IntN(10); {
		case k < 4 && len(live) > 0: // a prompt through a random live host
			cid := fmt.Sprintf("s%d-p%d", seed, step)
			cids = append(cids, cid)
			p := live[rng.IntN(len(live))]
			c, _, err := dialOnce(p)
			if err == nil {
				_, _, _ = c.Submit(sid, cid, "chaos prompt "+cid)
				c.Close()
			}
		case k < 6: // pause a host past its lease, or resume it
			h := hosts[rng.IntN(len(hosts))]
			switch {
			case h.dead:
			case h.paused:
				h.resume()
			case len(live) > 1:
				h.pause()
			}
		case k < 7: // kill a host, or restart a dead one
			h := hosts[rng.IntN(len(hosts))]
			switch {
			case h.dead:
				h.start(t)
			case h.paused:
			case len(live) > 1:
				h.kill()
			}
		case k < 8: // pause or kill one NATS node, or heal it
			if downNode != nil {
				w.heal(t, downNode, nodeKilled)
				downNode = nil
			} else {
				downNode = w.nodes[rng.IntN(len(w.nodes))]
				nodeKilled = rng.IntN(2) == 0
				if nodeKilled {
					downNode.Kill()
				} else {
					downNode.Pause()
				}
			}
		}
		time.Sleep(time.Duration(rng.Int64N(int64(2 * chaosTTL))))
	}
	// Heal everything, then let every client finish what it submitted:
	// a client resubmits (same commandId) until a host admits it.
	if downNode != nil {
		w.heal(t, downNode, nodeKilled)
		downNode = nil
	}
	w.waitJetStream(t)
	for _, h := range hosts {
		switch {
		case h.paused:
			h.resume()
		case h.dead:
			h.start(t)
		}
	}
	for _, cid := range cids {
		submitUntilAdmitted(t, hosts, sid, cid)
	}
	for _, cid := range cids {
		settled(t, hosts[0], sid, cid)
	}
	w.check(t, hosts, ns, sid, cids)
}

func (w *chaosWorld) heal(t *testing.T, n *natstest.ProcNode, killed bool) {
	t.Helper()
	if !killed {
		n.Resume()
		return
	}
	if err := n.Restart(w.natsBin); err != nil {
		t.Fatal(err)
	}
}

// waitJetStream waits until every node answers JetStream requests (a
// restarted node's cluster re-elects its meta leader first), so that a
// schedule ends, and the next starts, on a whole cluster.
func (w *chaosWorld) waitJetStream(t *testing.T) {
	t.Helper()
	for _, n := range w.nodes {
		deadline := time.Now().Add(60 * time.Second)
		for {
			err := accountInfo(n.URL())
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("node %s: JetStream does not answer: %v", n.Name, err)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	// Every node answering is not yet a cluster that places a stream on
	// three peers: a node just healed may not be current. A host started
	// before then fails to create its stream ("no suitable peers for
	// placement"), which is the cluster's state, not a finding.
	if err := natstest.WaitPlaceable(w.urls, 3, 90*time.Second); err != nil {
		t.Fatal(err)
	}
}

func accountInfo(url string) error {
	nc, err := nats.Connect(url)
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err = js.AccountInfo(ctx)
	return err
}

func liveHosts(hosts []*fleetProc) []*fleetProc {
	var out []*fleetProc
	for _, h := range hosts {
		if !h.dead && !h.paused {
			out = append(out, h)
		}
	}
	return out
}

func (w *chaosWorld) createSession(t *testing.T, p *fleetProc) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, _, err := dialOnce(p)
		if err == nil {
			res, rerr, err := c.Call("session/create", map[string]any{"title": "chaos"})
			c.Close()
			var r struct{ SessionID string }
			if err == nil && rerr == nil && json.Unmarshal(res, &r) == nil && r.SessionID != "" {
				return r.SessionID
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no session could be created through %s", p.id)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// submitUntilAdmitted resubmits cid through each host in turn until one
// admits it (or answers its earlier admission).
func submitUntilAdmitted(t *testing.T, hosts []*fleetProc, sid, cid string) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for i := 0; ; i++ {
		p := hosts[i%len(hosts)]
		c, _, err := dialOnce(p)
		if err == nil {
			_, _, err = c.Submit(sid, cid, "chaos prompt "+cid)
			c.Close()
			if err == nil {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no host admitted %s; %s answered %v", cid, p.id, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// check is the history checker.
func (w *chaosWorld) check(t *testing.T, hosts []*fleetProc, ns, sid string, cids []string) {
	t.Helper()
	checkOneChain(t, readChain(t, w.urls, ns, sid))
	var want []byte
	for _, h := range hosts {
		st := pagedFold(t, h, sid)
		got := st.Encode()
		t.Logf("%s's paged fold holds prompts %v", h.id, promptCounts(t, st))
		if want == nil {
			want = got
			counts := promptCounts(t, st)
			for _, cid := range cids {
				if counts[cid] != 1 {
					for _, h := range hosts {
						if c, _, err := dialOnce(h); err == nil {
							res, rerr, err := c.Call("command/replay", map[string]any{"sessionId": sid, "commandId": cid})
							t.Logf("%s replays %s: %s %v %v", h.id, cid, res, rerr, err)
							c.Close()
						}
					}
					for _, c := range readChain(t, w.urls, ns, sid) {
						t.Logf("commit %d by %s claim=%v seqs %d-%d", c.at, c.writer, c.claim, c.first, c.last)
					}
					t.Fatalf("prompt %s is in the history %d times", cid, counts[cid])
				}
			}
		} else if string(got) != string(want) {
			for _, h := range hosts {
				t.Logf("%s's pages hold seqs %v", h.id, pagedSeqs(t, h, sid))
			}
			for _, c := range readChain(t, w.urls, ns, sid) {
				if c.last > 0 || c.claim {
					t.Logf("commit %d by %s claim=%v seqs %d-%d", c.at, c.writer, c.claim, c.first, c.last)
				}
			}
			t.Fatalf("host %s's paged fold differs from %s's", h.id, hosts[0].id)
		}
	}
}

// pagedSeqs lists the seqs of the durable events p's pages hold.
func pagedSeqs(t *testing.T, p *fleetProc, sid string) []int64 {
	t.Helper()
	var seqs []int64
	eachPagedEvent(t, p, sid, func(_ string, params json.RawMessage) {
		var e struct{ ViewCursor string }
		if json.Unmarshal(params, &e) == nil {
			if _, seq, ok := model.ParseCursor(e.ViewCursor); ok {
				seqs = append(seqs, seq)
			}
		}
	})
	return seqs
}

// pagedFold folds the whole session as a client catching up from nothing
// does: view/page after, until hasNewer is false.
func pagedFold(t *testing.T, p *fleetProc, sid string) *model.State {
	t.Helper()
	st := model.NewState(sid)
	st.Epoch = eachPagedEvent(t, p, sid, func(method string, params json.RawMessage) {
		ev, err := model.DecodeNotification(method, params)
		if err == nil {
			err = st.Apply(ev)
		}
		if err != nil {
			t.Fatalf("%s's page: %s: %v", p.id, method, err)
		}
	})
	return st
}

// eachPagedEvent pages session sid through p from its start (view/page
// after, until hasNewer is false), calls fn for every event, and returns
// the epoch.
func eachPagedEvent(t *testing.T, p *fleetProc, sid string, fn func(method string, params json.RawMessage)) string {
	t.Helper()
	c := p.dial(t)
	defer c.Close()
	cursor := ""
	for range 10_000 {
		params := map[string]any{"sessionId": sid, "direction": "after", "limit": 500}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var page struct {
			Epoch     string
			EndCursor string
			HasNewer  bool
			Events    []struct {
				Method string
				Params json.RawMessage
			}
		}
		c.MustCall(t, "view/page", params, &page)
		for _, e := range page.Events {
			fn(e.Method, e.Params)
		}
		if !page.HasNewer {
			return page.Epoch
		}
		if page.EndCursor == cursor {
			t.Fatalf("%s's pages do not advance past %s", p.id, cursor)
		}
		cursor = page.EndCursor
	}
	t.Fatalf("%s's pages never end", p.id)
	return ""
}

func promptCounts(t *testing.T, st *model.State) map[string]int {
	t.Helper()
	var snap struct {
		Items []struct{ Kind, CommandID string }
	}
	if err := json.Unmarshal(st.Encode(), &snap); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, it := range snap.Items {
		if it.Kind == model.KindUserMessage {
			counts[it.CommandID]++
		}
	}
	return counts
}
