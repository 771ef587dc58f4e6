package sync

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/internal/servetest"
	"github.com/lookout-sh/lookout/model"
)

// The chaos test runs random fault schedules against several clients of
// one session and checks the outcome against the host's own history.
//
//	LOOKOUT_CHAOS_SCHEDULES=N  how many schedules (default 4; a soak runs thousands)
//	LOOKOUT_CHAOS_SEED=S       the first schedule's seed (default: from the clock);
//	                           schedule i uses S+i, and a failure names its seed
//
// A schedule picks a durable host (a real `lookout serve` process, killed
// with SIGKILL at random points and restarted) or an ephemeral one (in
// process, never killed: its death loses the session by design), two or
// three clients each behind its own fault proxy, and a random sequence of
// steps: prompts from random clients, cuts mid-frame, dropped frames,
// stalls found by a focus probe, refusals, host kills. Then it heals the
// network and checks that every submission ran at most once, every one
// the host admitted ran exactly once, and every client's fold equals the
// host's.
func TestChaosSchedules(t *testing.T) {
	n := envInt(t, "LOOKOUT_CHAOS_SCHEDULES", 4)
	base := uint64(time.Now().UnixNano())
	if s := os.Getenv("LOOKOUT_CHAOS_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("LOOKOUT_CHAOS_SEED=%q: %v", s, err)
		}
		base = v
	}
	t.Logf("chaos: %d schedules from seed %d", n, base)
	for i := range n {
		seed := base + uint64(i)
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("replay this schedule with LOOKOUT_CHAOS_SEED=%d LOOKOUT_CHAOS_SCHEDULES=1", seed)
				}
			})
			runChaos(t, seed)
		})
	}
}

func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		t.Fatalf("%s=%q is not a count", name, s)
	}
	return v
}

// chaosHost is the host a schedule runs against: in process (ephemeral)
// or a lookout serve process (durable, killable).
type chaosHost struct {
	t       *testing.T
	durable bool
	addr    string
	data    string
	token   string
	proc    *exec.Cmd
	inproc  *host.Host
	kills   int
}

func startChaosHost(t *testing.T, durable bool) *chaosHost {
	h := &chaosHost{t: t, durable: durable}
	if !durable {
		h.inproc = startHost(t, host.Options{Ephemeral: true, Pace: time.Millisecond})
		h.addr, h.token = h.inproc.Addr(), h.inproc.Token()
		return h
	}
	h.data = t.TempDir()
	h.addr = "127.0.0.1:0"
	h.start()
	tok, err := os.ReadFile(host.TokenPath(h.data))
	if err != nil {
		t.Fatal(err)
	}
	h.token = strings.TrimSpace(string(tok))
	return h
}

func (h *chaosHost) url() string { return "ws://" + h.addr + host.WSPath }

// start runs lookout serve on h.addr (its port is kept across restarts).
func (h *chaosHost) start() {
	t := h.t
	p := servetest.Start(t, servetest.Binary(t), servetest.Options{},
		"--addr", h.addr, "--data", h.data, "--pace", "1ms", "--demo-session=false")
	h.addr, h.proc = p.Addr(), p.Cmd
}

// kill ends the host process with SIGKILL and starts it again on the same
// data directory and port.
func (h *chaosHost) killAndRestart() {
	_ = h.proc.Process.Signal(syscall.SIGKILL)
	_ = h.proc.Wait()
	h.kills++
	h.start()
}

type chaosClient struct {
	c     *runningClient
	p     *faultProxy
	cids  []string
	label string
}

func runChaos(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x6c6f6f6b))
	durable := rng.IntN(4) != 0 // mostly durable: kills are the hard part
	h := startChaosHost(t, durable)
	sid := createSession(t, h.url(), h.token, fmt.Sprint("chaos ", seed))
	clients := make([]*chaosClient, 2+rng.IntN(2))
	for i := range clients {
		p := newFaultProxy(t, h.addr, seed*16+uint64(i))
		clients[i] = &chaosClient{p: p, label: fmt.Sprint("client ", i),
			c: fastClient(t, Options{URL: p.URL(), Token: h.token, SessionID: sid, Deltas: rng.IntN(3) != 0})}
	}
	steps := 8 + rng.IntN(8)
	var log []string
	for step := range steps {
		cc := clients[rng.IntN(len(clients))]
		switch k := rng.IntN(11); {
		case k < 4:
			text := fmt.Sprintf("chaos %d step %d from %s", seed, step, cc.label)
			if rng.IntN(3) == 0 {
				text += ": compact and warning"
			}
			cc.cids = append(cc.cids, cc.c.Submit(text))
			log = append(log, "submit by "+cc.label)
		case k < 6:
			lo := 200 + rng.IntN(4000)
			cc.p.CutEach(lo, lo+rng.IntN(20000))
			log = append(log, "cuts on "+cc.label)
		case k == 6:
			every := 2 + rng.IntN(4)
			n := 0
			cc.p.Drop(func(b []byte) bool {
				if f, err := model.ParseFrame(b); err == nil && f.Method != "" {
					n++
					return n%every == 0
				}
				return false
			})
			log = append(log, "drops on "+cc.label)
		case k == 7:
			cc.p.StallAll()
			cc.c.Focus()
			log = append(log, "stall and probe on "+cc.label)
		case k == 8:
			cc.p.Refuse(true)
			cc.p.KillAll()
			log = append(log, "refusal on "+cc.label)
		default:
			if h.durable {
				h.killAndRestart()
				for _, c := range clients {
					c.p.SetTarget(h.addr)
				}
				log = append(log, "host kill -9")
			} else {
				cc.p.KillAll()
				log = append(log, "connection kill on "+cc.label)
			}
		}
		// Let the schedule run a little between steps.
		time.Sleep(time.Duration(rng.IntN(80)) * time.Millisecond)
		if rng.IntN(4) == 0 {
			for _, c := range clients {
				c.p.Refuse(false)
				c.p.Drop(nil)
			}
		}
	}
	t.Logf("schedule: %s", strings.Join(log, ", "))
	checkChaos(t, h, sid, clients)
}

// checkChaos heals the network, waits until every client is idle with its
// submissions settled, and checks the history against the host's truth.
func checkChaos(t *testing.T, h *chaosHost, sid string, clients []*chaosClient) {
	t.Helper()
	for _, cc := range clients {
		cc.p.CutEach(0, 0)
		cc.p.Drop(nil)
		cc.p.Refuse(false)
		cc.c.Retry()
	}
	// One more prompt once the network is whole: a client that lost the
	// tail of the stream (dropped frames with nothing after them) learns
	// of the gap from the next durable event, as it would in a session
	// that goes on.
	last := clients[0].c.Submit("chaos: the network is whole again")
	clients[0].cids = append(clients[0].cids, last)
	var all []string
	owner := map[string]*chaosClient{}
	for _, cc := range clients {
		all = append(all, cc.cids...)
		for _, cid := range cc.cids {
			owner[cid] = cc
		}
		waitFor(t, cc.c.Client, cc.label+" idle with every prompt folded", func(s Picture) bool {
			if !idle(s) {
				return false
			}
			n := userMessages(s.View)
			return n[last] == 1
		})
	}
	// The host's history: each submission ran at most once, and every one
	// it admitted ran exactly once.
	want := truth(t, h.url(), h.token, sid)
	var snap struct {
		Items []struct {
			Kind      string `json:"kind"`
			CommandID string `json:"commandId"`
		} `json:"items"`
	}
	if err := json.Unmarshal(want, &snap); err != nil {
		t.Fatal(err)
	}
	ran := map[string]int{}
	for _, it := range snap.Items {
		if it.Kind == model.KindUserMessage {
			ran[it.CommandID]++
		}
	}
	r := dialRaw(t, h.url(), h.token)
	defer r.close()
	for _, cid := range all {
		if ran[cid] > 1 {
			t.Fatalf("prompt %s ran %d times", cid, ran[cid])
		}
		var rep struct {
			State      string `json:"state"`
			Settlement *struct {
				Kind string `json:"kind"`
			} `json:"settlement"`
		}
		if err := json.Unmarshal(r.call("command/replay", map[string]any{"sessionId": sid, "commandId": cid}), &rep); err != nil {
			t.Fatal(err)
		}
		admitted := rep.State != "unknown"
		if admitted && rep.Settlement != nil && rep.Settlement.Kind == "userMessage" && ran[cid] != 1 {
			t.Fatalf("admitted prompt %s ran %d times", cid, ran[cid])
		}
		if !admitted {
			// Only a prompt its client gave up sending may be unknown.
			if r, ok := owner[cid].c.Settlement(cid); !ok || r.Reason != model.RetiredGaveUp {
				t.Fatalf("prompt %s was never admitted, and its client did not give it up (%+v)", cid, r)
			}
		}
	}
	// Every client was idle once, but events of the turns after its own
	// may still be on their way to it: compare each fold once it is live
	// and holds the host's last durable event (settled_test.go).
	hostDurable := durableCursorOf(t, want)
	for _, cc := range clients {
		got, err := settledFold(cc.c.Client, hostDurable, waitTimeout)
		if err != nil {
			t.Fatalf("%s: %v\nwant %s", cc.label, err, clip(want))
		}
		checkTranscript(t, cc.c.Current().View)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s's fold differs from the host's:\n got %s\nwant %s", cc.label, clip(got), clip(want))
		}
	}
	if h.durable {
		t.Logf("host killed %d times", h.kills)
	}
}
