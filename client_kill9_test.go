package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
	lsync "github.com/lookout-sh/lookout/sync"
)

// TestClientAcrossHostKill9 runs the real host as a process, kills it with
// SIGKILL during a streaming turn, and restarts it on the same data
// directory and port: the client resumes and folds the host-death
// terminals the restarted host journals, ending equal to a fresh export.
func TestClientAcrossHostKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the lookout binary")
	}
	bin := buildLookout(t)
	data := t.TempDir()
	serve := func(addr string) (*exec.Cmd, string) {
		return startServe(t, bin, nil, "--addr", addr, "--data", data, "--pace", "5ms", "--demo-session=false")
	}
	proc, url := serve("127.0.0.1:0")
	tokenBytes, err := os.ReadFile(host.TokenPath(data))
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(string(tokenBytes))
	sctx, scancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer scancel()
	sid, err := lsync.CreateSession(sctx, lsync.Options{URL: url, Token: token, HostsFile: "-"}, "kill9")
	if err != nil {
		t.Fatal(err)
	}

	c, err := lsync.New(lsync.Options{URL: url, Token: token, SessionID: sid, CacheDir: "-", Deltas: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { defer close(ran); _ = c.Run(ctx) }()
	defer func() { cancel(); <-ran }()
	wait := func(what string, cond func(lsync.Picture) bool) lsync.Picture {
		t.Helper()
		deadline := time.After(60 * time.Second)
		for {
			s := c.Current()
			if cond(s) {
				return s
			}
			select {
			case <-c.Updates():
			case <-deadline:
				t.Fatalf("timed out waiting for %s: %+v", what, s.Freshness)
			}
		}
	}
	cid := c.Submit("slow: stream until the host dies")
	wait("streaming", func(s lsync.Picture) bool {
		for _, it := range s.View.Items {
			if it.Kind == model.KindAgentMessage && it.IsOpen() && it.Text() != "" {
				return true
			}
		}
		return false
	})
	if err := proc.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = proc.Wait()
	wait("reconnecting", func(s lsync.Picture) bool { return s.Freshness.State == lsync.Reconnecting })
	_, url2 := serve(strings.TrimSuffix(strings.TrimPrefix(url, "ws://"), "/v1/ws"))
	if url2 != url {
		t.Fatalf("restarted on %s, want %s", url2, url)
	}
	s := wait("host-death terminals", func(s lsync.Picture) bool {
		if s.Freshness.State != lsync.Live || s.View.ActiveTurn != nil {
			return false
		}
		for _, it := range s.View.Items {
			if it.EndedBy() == "hostDeath" {
				return true
			}
		}
		return false
	})
	for _, it := range s.View.Items {
		if it.IsOpen() {
			t.Fatalf("item %s still open", it.ID)
		}
	}
	if lt := s.View.LastTurn; lt == nil || lt.Status != model.StatusFailed || lt.Error == nil || lt.Error.Code != "hostDeath" {
		t.Fatalf("last turn %+v, want failed hostDeath", lt)
	}
	if r, ok := c.Settlement(cid); !ok || r.Reason != model.RetiredJoined {
		t.Fatalf("the prompt settled %+v %v", r, ok)
	}
	var got []byte
	ictx, icancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer icancel()
	if err := c.Inspect(ictx, func(st *model.State) { got = st.Encode() }); err != nil {
		t.Fatal(err)
	}
	want, err := exec.Command(bin, "export", url, "--token", token, "--session", sid, "--format", "json").Output()
	if err != nil || strings.TrimSpace(string(want)) != string(got) {
		t.Fatalf("resumed fold differs from a fresh export (%v):\n got %s\nwant %s", err, got, want)
	}
}
