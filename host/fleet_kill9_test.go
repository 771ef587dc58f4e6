package host_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/internal/natstest"
	"github.com/lookout-sh/lookout/model"
)

// fleetEnv makes the helper host process (crash_test.go) a fleet host:
// "NATS-URL HOST-ID".
const fleetEnv = "LOOKOUT_TEST_FLEET"

// helperOptions are the options of the helper host process on dir.
func helperOptions(dir string) host.Options {
	opts := host.Options{Addr: "127.0.0.1:0", DataDir: dir}
	if os.Getenv(streamEnv) != "" {
		opts.AgentImpl = &host.StreamAgent{Text: streamedDigits, Chunk: 10, Rate: 500}
		opts.FieldBound = len(streamedDigits) + 1
	}
	if url, id, ok := strings.Cut(os.Getenv(fleetEnv), " "); ok {
		opts.Journal, opts.JournalNamespace, opts.FleetHostID, opts.FleetLeaseTTL = url, "k9", id, time.Second
	}
	return opts
}

// Host a runs a session in its own process and is killed -9 mid-turn.
// Host b, running on the same JetStream, serves the session while a lives
// (its export equals a's, and session/list names a as its host), then
// takes it over: the history a's client saw is b's, seq for seq, followed
// by the host-death terminals, written once; b's subscribers of the
// session as a wrote it are told to resume (close 1012), but only once the
// session they resume on is in place, and a request made while b takes
// the session over waits for it rather than reading the replica.
func TestFleetHostKilledMidTurn(t *testing.T) {
	node := natstest.Start(t, t.TempDir())
	t.Setenv(fleetEnv, node.URL()+" a")
	proc, ca := startHostProcess(t, t.TempDir())
	sid, epoch, st := newSession(t, ca)
	_, slowTurn, err := ca.Submit(sid, "slow-cmd", "a slow one, please")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ca.WaitEvent(st, func(ev *model.Event) bool { return ev.Method == model.MethodItemDelta && ev.Delta == "while. " }); err != nil {
		t.Fatal(err)
	}
	seen := pageAll(t, ca, sid, epoch, 100)
	takingOver, gate := make(chan string, 1), make(chan struct{})
	release := sync.OnceFunc(func() { close(gate) })
	b := hosttest.Start(t, host.WithTakeoverGate(
		host.Options{Journal: node.URL(), JournalNamespace: "k9", FleetHostID: "b", FleetLeaseTTL: time.Second},
		func(sid string) { takingOver <- sid; <-gate }))
	t.Cleanup(release) // before b closes: a takeover waiting at the gate holds its close
	cb := hosttest.Dial(t, b)
	if got := hostOf(t, cb, sid); got != "a" {
		t.Fatalf("b lists a's session with host %q, want a", got)
	}
	waitExport(t, cb, rawExport(t, ca, sid, epoch), sid, epoch)
	watcher := hosttest.Dial(t, b)
	if _, err := watcher.Subscribe(sid, "", "", 0); err != nil {
		t.Fatal(err)
	}
	if err := proc.Process.Kill(); err != nil { // SIGKILL: a has no chance to write anything
		t.Fatal(err)
	}
	<-ca.Done()

	select {
	case got := <-takingOver:
		if got != sid {
			t.Fatalf("b takes over %s, want %s", got, sid)
		}
	case <-time.After(hosttest.Timeout):
		t.Fatal("b never took the session over")
	}
	early := hosttest.Dial(t, b)
	earlyPage := make(chan int, 1)
	go func() { // answered only once the takeover is done
		res, rpcErr, err := early.Call("view/page", map[string]any{"sessionId": sid, "epoch": epoch, "direction": "after",
			"cursor": model.FormatCursor(sid, 0), "limit": 100})
		var p page
		if err != nil || rpcErr != nil || json.Unmarshal(res, &p) != nil {
			earlyPage <- -1
			return
		}
		earlyPage <- len(p.Events)
	}()
	select {
	case <-watcher.Done():
		t.Fatal("b closed its subscriber before the session it resumes on was in place")
	case n := <-earlyPage:
		t.Fatalf("b answered a page with %d events in the middle of its takeover", n)
	case <-time.After(300 * time.Millisecond):
	}
	release()

	deadline := time.Now().Add(hosttest.Timeout)
	for hostOf(t, cb, sid) != "b" {
		if time.Now().After(deadline) {
			t.Fatal("b never took the session over")
		}
		time.Sleep(100 * time.Millisecond)
	}
	<-watcher.Done()
	if code := watcher.CloseCode(); code != 1012 {
		t.Fatalf("b's subscriber of the replica was closed with %d, want 1012", code)
	}
	all := pageAll(t, cb, sid, epoch, 100)
	if len(all) <= len(seen) || !slices.EqualFunc(all[:len(seen)], seen, func(x, y *model.Event) bool {
		return x.Seq == y.Seq && x.Method == y.Method
	}) {
		t.Fatalf("b's history does not start with the %d events a's client saw (b has %d)", len(seen), len(all))
	}
	if n := <-earlyPage; n != len(all) {
		t.Fatalf("the page asked for during the takeover holds %d events, want all %d", n, len(all))
	}
	deaths := 0
	for _, ev := range all {
		if ev.Method == model.MethodTurnCompleted && ev.TurnID == slowTurn {
			deaths++
		}
	}
	if deaths != 1 {
		t.Fatalf("the killed turn ends %d times in b's journal, want once", deaths)
	}
	if got := foldAll(t, sid, all); got.ActiveTurn() != nil {
		t.Fatalf("turn %s still active after the takeover", got.ActiveTurn().TurnID)
	}
}
