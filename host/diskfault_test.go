package host_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// journalSurvives restarts a host on dir and checks that its journal loads
// and holds exactly the fold a client of the first host ended with.
func journalSurvives(t *testing.T, opts host.Options, sid string, want []byte) {
	t.Helper()
	h := hosttest.Start(t, opts)
	c := hosttest.Dial(t, h)
	st, sub := snapshotState(t, c, sid)
	if got := st.Encode(); string(got) != string(want) {
		t.Fatalf("after a restart the journal holds another session:\n got %s\nwant %s", got, want)
	}
	if paged := foldAll(t, sid, pageAll(t, c, sid, sub.Epoch, 100)).Encode(); string(paged) != string(want) {
		t.Fatal("after a restart the journal's pages fold to another session")
	}
}

// waitBackpressured submits until the host refuses with -32001 naming the
// journal's failure (the first submissions may be admitted before the
// first failed commit).
func waitBackpressured(t *testing.T, c *hosttest.Client, sid, want string) {
	t.Helper()
	deadline := time.Now().Add(hosttest.Timeout)
	for {
		_, _, err := c.Submit(sid, uuid.NewString(), "refused while the journal fails")
		var re *model.RPCError
		if errors.As(err, &re) && re.Code == model.CodeBackpressured && strings.Contains(re.Message, "cannot write its journal") {
			if !strings.Contains(re.Message, want) {
				t.Fatalf("backpressure %q does not name the failure %q", re.Message, want)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the host kept admitting work while its journal failed (last answer: %v)", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestJournalWriteFailures: while every journal write fails (as with a
// failing fsync), the host holds what its agent emits, sends nothing it
// did not journal, refuses new work with a clear -32001, and once writes
// succeed again delivers everything; the journal then loads after a
// restart to the same session.
func TestJournalWriteFailures(t *testing.T) {
	dir := t.TempDir()
	fault := &host.JournalFault{}
	opts := host.WithJournalFault(host.Options{DataDir: dir, Pace: time.Millisecond}, fault)
	h := hosttest.Start(t, opts)
	c := hosttest.Dial(t, h)
	var out struct {
		SessionID string `json:"sessionId"`
	}
	c.MustCall(t, "session/create", map[string]any{"title": "disk"}, &out)
	sid := out.SessionID
	st, _ := snapshotState(t, c, sid)
	_, first, err := c.Submit(sid, uuid.NewString(), "before the fault")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(first)); err != nil {
		t.Fatal(err)
	}

	fault.Set(errors.New("fsync journal.db-wal: input/output error"))
	// The answer to a submission waits for its commit: this one is
	// refused, naming the failure, or (if the host had not yet tried to
	// commit) admitted; either way its client may retry it with the same
	// commandId.
	heldCID := uuid.NewString()
	_, _, err = c.Submit(sid, heldCID, "during the fault")
	wantJournalRefusal(t, err, "input/output error")
	waitBackpressured(t, c, sid, "input/output error")
	if _, rerr, err := c.Call("session/create", map[string]any{}); err != nil || rerr == nil || rerr.Code != model.CodeBackpressured {
		t.Fatalf("session/create while the journal fails: %v %v, want -32001", rerr, err)
	}
	// Nothing the host could not journal reaches the client.
	time.Sleep(200 * time.Millisecond)
	for c.Pending() > 0 {
		ev, err := c.NextEvent()
		if err != nil {
			t.Fatal(err)
		}
		if ev.Durable && ev.Seq > st.DurableCursor && ev.PrevSeq == st.DurableCursor {
			if err := st.Apply(ev); err != nil {
				t.Fatal(err)
			}
		}
		if ev.Method == model.MethodTurnCompleted && ev.TurnID != first {
			t.Fatal("a turn's end was sent while the journal failed")
		}
	}

	fault.Set(nil)
	_, held, err := c.Submit(sid, heldCID, "during the fault")
	if err != nil {
		t.Fatalf("the retried submission after the journal healed: %v", err)
	}
	if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(held)); err != nil {
		t.Fatal(err)
	}
	_, after, err := c.Submit(sid, uuid.NewString(), "after the fault")
	if err != nil {
		t.Fatalf("submit after the journal healed: %v", err)
	}
	if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(after)); err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, it := range st.Items() {
		if it.Kind == model.KindUserMessage && it.CommandID() == heldCID {
			ran++
		}
	}
	if ran != 1 {
		t.Fatalf("the prompt submitted during the fault ran %d times", ran)
	}
	want := st.Encode()
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	journalSurvives(t, host.Options{DataDir: dir}, sid, want)
}

// wantJournalRefusal accepts no error, or -32001 naming the journal's
// failure.
func wantJournalRefusal(t *testing.T, err error, want string) {
	t.Helper()
	var re *model.RPCError
	if err != nil && (!errors.As(err, &re) || re.Code != model.CodeBackpressured || !strings.Contains(re.Message, want)) {
		t.Fatalf("submit during the journal failure: %v, want success or -32001 naming %q", err, want)
	}
}

// TestJournalOnAFullDisk runs a durable host on a 2 MiB filesystem and
// fills it while a long answer streams: the host refuses new work naming
// the full disk, and once space is freed it delivers what was held; the
// journal is not corrupt (it loads after a restart to the same session).
// It needs to mount a tmpfs (root); under CI=true it must run.
func TestJournalOnAFullDisk(t *testing.T) {
	if host.JournalBackend() != "sqlite" {
		t.Skip("reads SQLite's files")
	}
	dir := smallFilesystem(t, "2m")
	data := filepath.Join(dir, "host")
	h := hosttest.Start(t, host.Options{DataDir: data, Pace: time.Millisecond})
	c := hosttest.Dial(t, h)
	var out struct {
		SessionID string `json:"sessionId"`
	}
	c.MustCall(t, "session/create", map[string]any{"title": "full disk"}, &out)
	sid := out.SessionID
	st, _ := snapshotState(t, c, sid)
	filler := filepath.Join(dir, "filler")
	fill(t, filler)
	cid := uuid.NewString()
	_, _, err := c.Submit(sid, cid, "a long answer: long")
	wantJournalRefusal(t, err, "full")
	waitBackpressured(t, c, sid, "full")
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	_, turn, err := c.Submit(sid, cid, "a long answer: long")
	if err != nil {
		t.Fatalf("the retried submission after space was freed: %v", err)
	}
	if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(turn)); err != nil {
		t.Fatal(err)
	}
	want := st.Encode()
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	journalSurvives(t, host.Options{DataDir: data}, sid, want)
}

// smallFilesystem mounts a tmpfs of size for the test. Without the right
// to mount it skips, except under CI=true, where it fails.
func smallFilesystem(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0700", "tmpfs", dir).CombinedOutput()
	if err != nil {
		msg := fmt.Sprintf("cannot mount a small tmpfs (needs root): %v %s", err, out)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", "-l", dir).CombinedOutput(); err != nil {
			t.Logf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir
}

// fill writes to path until the filesystem is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		if _, err := f.Write(buf); err != nil {
			if errors.Is(err, syscall.ENOSPC) {
				return
			}
			t.Fatal(err)
		}
	}
}
