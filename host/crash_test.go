package host_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/internal/leakcheck"
	"github.com/lookout-sh/lookout/model"
)

const helperEnv = "LOOKOUT_TEST_HOST_DIR"

// streamEnv, set for a helper host, makes its agent stream streamedDigits
// at 500 deltas of 10 bytes a second, and nothing else: the streamed text
// is only ever in deltas until the item completes.
const streamEnv = "LOOKOUT_TEST_HOST_STREAM"

// streamedDigits is a text no prefix of which repeats: the decimal
// numbers from 0, one after another.
var streamedDigits = func() string {
	var b strings.Builder
	for i := 0; b.Len() < 400_000; i++ {
		fmt.Fprintf(&b, "%d ", i)
	}
	return b.String()
}()

// TestMain doubles as a standalone durable host when helperEnv names a data
// directory: the crash test runs it as a real process and kills it.
// Otherwise it runs the tests and checks that they leak no goroutine and
// no file descriptor.
func TestMain(m *testing.M) {
	if dir := os.Getenv(helperEnv); dir != "" {
		h, err := host.Start(context.Background(), helperOptions(dir))
		if err != nil {
			fmt.Fprintln(os.Stderr, "helper host:", err)
			os.Exit(2)
		}
		tmp := filepath.Join(dir, "url.tmp")
		if err := os.WriteFile(tmp, []byte(h.URL()), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, "helper host:", err)
			os.Exit(2)
		}
		if err := os.Rename(tmp, filepath.Join(dir, "url")); err != nil {
			fmt.Fprintln(os.Stderr, "helper host:", err)
			os.Exit(2)
		}
		select {}
	}
	leakcheck.Main(m)
}

// startHostProcess runs a durable host in a child process on dir and
// dials it.
func startHostProcess(t *testing.T, dir string, env ...string) (*exec.Cmd, *hosttest.Client) {
	t.Helper()
	urlFile := filepath.Join(dir, "url")
	os.Remove(urlFile)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), helperEnv+"="+dir), env...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()          // killed on purpose: its exit status says nothing
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-exited }) // it may have exited already
	deadline := time.Now().Add(hosttest.Timeout)
	var url []byte
	for {
		var err error
		if url, err = os.ReadFile(urlFile); err == nil {
			break
		}
		select {
		case <-exited:
			t.Fatal("host process exited during start")
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("host process did not start")
		}
	}
	tok, err := os.ReadFile(host.TokenPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := hosttest.DialURL(string(url), http.Header{"Authorization": {"Bearer " + strings.TrimSpace(string(tok))}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return cmd, c
}

func TestKilledHostAppendsHostDeathTerminals(t *testing.T) {
	dir := t.TempDir()
	proc, c := startHostProcess(t, dir)
	sid, epoch, st := newSession(t, c)
	_, slowTurn, err := c.Submit(sid, "slow-cmd", "a slow one, please")
	if err != nil {
		t.Fatal(err)
	}
	if s, _, err := c.Submit(sid, "queued-cmd", "queued behind it"); err != nil || s != "queued" {
		t.Fatalf("queued submit: %s %v", s, err)
	}
	if _, _, err := c.WaitEvent(st, func(ev *model.Event) bool { return ev.Method == model.MethodItemDelta && ev.Delta == "while. " }); err != nil {
		t.Fatal(err)
	}
	var openItem string
	for _, it := range st.Items() {
		if it.IsOpen() {
			openItem = it.ID
		}
	}
	if openItem == "" || st.ActiveTurn() == nil {
		t.Fatal("nothing open at the kill")
	}
	// What this client saw streamed into the open item more than the
	// record interval before the kill: the host must have recorded it.
	streamed := st.Item(openItem).Text()
	if !strings.Contains(streamed, "while. ") {
		t.Fatalf("open item %s holds %q", openItem, streamed)
	}
	time.Sleep(host.StreamRecordInterval + time.Second)

	if err := proc.Process.Kill(); err != nil { // SIGKILL: no chance to write anything
		t.Fatal(err)
	}
	<-c.Done()
	foldReceived(t, c, st) // what the client saw by the kill, which may be more
	sawByKill := st.Item(openItem).Text()
	seenBefore := st.Cursor

	_, c2 := startHostProcess(t, dir)
	sub, err := c2.Subscribe(sid, model.FormatCursor(sid, seenBefore), epoch, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("resubscribe at %d: %s, head %s", seenBefore, sub.Delivery, sub.Head)
	if sub.Epoch != epoch {
		t.Fatalf("epoch changed across a restart: %s -> %s", epoch, sub.Epoch)
	}
	if sub.Delivery == "snapshot" {
		if _, err := st.LoadSnapshot(sid, epoch, *sub.Snapshot); err != nil {
			t.Fatal(err)
		}
	}
	// The queued turn runs after recovery: read until it completes.
	for {
		ev, err := c2.NextEvent()
		if err != nil {
			t.Fatal(err)
		}
		if ev.Seq <= seenBefore {
			t.Fatalf("seq %d reused after the restart (had seen %d)", ev.Seq, seenBefore)
		}
		if err := st.Apply(ev); err != nil {
			t.Fatal(err)
		}
		if ev.Method == model.MethodTurnCompleted && ev.TurnID != slowTurn {
			break
		}
	}
	it := st.Item(openItem)
	if it.Status != model.StatusFailed || it.EndedBy() != "hostDeath" {
		t.Fatalf("open item after recovery: %s", it.AppendJSON(nil))
	}
	// The host-death terminal restates the text streamed before the death
	// (recorded deltas), not just the item's last full object: all of it
	// but at most the last record interval, and nothing the client did not
	// see.
	if !strings.HasPrefix(it.Text(), streamed) || !strings.HasPrefix(sawByKill, it.Text()) {
		t.Fatalf("streamed text lost in the crash:\n saw   %q\n by the kill %q\n after %q", streamed, sawByKill, it.Text())
	}
	queuedRan := false
	for _, it := range itemsOfKind(st, model.KindUserMessage) {
		if it.CommandID() == "queued-cmd" {
			queuedRan = true
		}
	}
	if !queuedRan || !st.Idle() {
		t.Fatalf("queued turn ran %v, idle %v", queuedRan, st.Idle())
	}
	for _, it := range st.Items() {
		if it.IsOpen() {
			t.Fatalf("item still open: %s", it.ID)
		}
	}
	// The journal is one unbroken chain, holds the killed turn's host-death
	// terminal, and folds to what the client holds.
	all := pageAll(t, c2, sid, epoch, 100)
	found := false
	for _, ev := range all {
		if ev.Method == model.MethodTurnCompleted && ev.TurnID == slowTurn {
			found = ev.Status == model.StatusFailed && ev.TurnError != nil && ev.TurnError.Code == "hostDeath"
		}
	}
	if !found {
		t.Fatal("no turn/completed failed with hostDeath for the killed turn")
	}
	snap, _ := snapshotState(t, c2, sid)
	if string(foldAll(t, sid, all).Encode()) != string(snap.Encode()) || string(st.Encode()) != string(snap.Encode()) {
		t.Fatal("client fold, journal fold and snapshot disagree after recovery")
	}
	if r := replay(t, c2, sid, "slow-cmd"); r.State != "settled" || r.TurnStatus != model.StatusFailed || r.TurnError == nil || r.TurnError.Code != "hostDeath" {
		t.Fatalf("replay after recovery = %+v", r)
	}
}

func TestGracefulRestartKeepsSessionsAndQueue(t *testing.T) {
	dir := t.TempDir()
	h := hosttest.Start(t, host.Options{DataDir: dir})
	c := hosttest.Dial(t, h)
	sid, epoch, st := newSession(t, c)
	runTurn(t, c, sid, st, "one", "hello")
	_, slow, _ := c.Submit(sid, "slow", "slow")
	if _, _, err := c.Submit(sid, "later", "run me after the restart"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.WaitEvent(st, func(ev *model.Event) bool { return ev.Method == model.MethodItemDelta && ev.Delta == "while. " }); err != nil {
		t.Fatal(err)
	}
	h.Close()
	// The client hears the stopped turn before the close.
	ev, _, err := c.WaitEvent(st, hosttest.TurnCompleted(slow))
	if err != nil || ev.Status != model.StatusStopped || ev.TurnError == nil || ev.TurnError.Code != "hostShutdown" {
		t.Fatalf("turn at shutdown: %+v %v", ev, err)
	}
	<-c.Done()
	if c.CloseCode() != 1001 {
		t.Fatalf("close code %d", c.CloseCode())
	}
	h2 := hosttest.Start(t, host.Options{DataDir: dir})
	c2 := hosttest.Dial(t, h2)
	sub, err := c2.Subscribe(sid, model.FormatCursor(sid, st.Cursor), epoch, 0)
	if err != nil || sub.Epoch != epoch {
		t.Fatalf("resubscribe: %+v %v", sub, err)
	}
	if sub.Delivery == "snapshot" { // the queued turn may already be streaming
		if _, err := st.LoadSnapshot(sid, epoch, *sub.Snapshot); err != nil {
			t.Fatal(err)
		}
	}
	for {
		ev, err := c2.NextEvent()
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Apply(ev); err != nil {
			t.Fatal(err)
		}
		if ev.Method == model.MethodTurnCompleted {
			break
		}
	}
	if r := replay(t, c2, sid, "later"); r.State != "settled" || r.Settlement["kind"] != "userMessage" {
		t.Fatalf("queued command after restart: %+v", r)
	}
	snap, _ := snapshotState(t, c2, sid)
	if string(snap.Encode()) != string(st.Encode()) {
		t.Fatal("fold after restart != snapshot")
	}
}

// A host killed -9 while an answer streams (its text only in deltas so
// far) restates in the host-death terminal everything its client saw more
// than StreamRecordInterval before the kill, and nothing the client did
// not see.
func TestKilledHostKeepsTheStreamedTextBarTheLastInterval(t *testing.T) {
	dir := t.TempDir()
	proc, c := startHostProcess(t, dir, streamEnv+"=1")
	sid, epoch, st := newSession(t, c)
	if _, _, err := c.Submit(sid, "stream-cmd", "stream"); err != nil {
		t.Fatal(err)
	}
	var item string
	if _, _, err := c.WaitEvent(st, func(ev *model.Event) bool {
		item = ev.ItemID
		return ev.Method == model.MethodItemDelta && len(st.Item(ev.ItemID).Text()) > 2000
	}); err != nil {
		t.Fatal(err)
	}
	kept := st.Item(item).Text()
	time.Sleep(host.StreamRecordInterval + time.Second)
	if err := proc.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-c.Done()
	foldReceived(t, c, st)
	saw := st.Item(item).Text()

	_, c2 := startHostProcess(t, dir, streamEnv+"=1")
	sub, err := c2.Subscribe(sid, "", epoch, 0)
	if err != nil {
		t.Fatal(err)
	}
	after := model.NewState(sid)
	if _, err := after.LoadSnapshot(sid, sub.Epoch, *sub.Snapshot); err != nil {
		t.Fatal(err)
	}
	it := after.Item(item)
	if it == nil || it.Status != model.StatusFailed || it.EndedBy() != "hostDeath" {
		t.Fatalf("the streaming item after the restart: %+v", it)
	}
	if got := it.Text(); !strings.HasPrefix(got, kept) || !strings.HasPrefix(saw, got) {
		t.Fatalf("recovered %d bytes of streamed text; the client saw %d by the kill and %d a record interval before it, all of which must be kept",
			len(got), len(saw), len(kept))
	}
	if !strings.HasPrefix(streamedDigits, saw) {
		t.Fatal("the client saw text the agent never streamed")
	}
}

// foldReceived folds into st every frame c received before its
// connection ended.
func foldReceived(t *testing.T, c *hosttest.Client, st *model.State) {
	t.Helper()
	for c.Pending() > 0 {
		ev, err := c.NextEvent()
		if err != nil {
			return
		}
		if err := st.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
}
