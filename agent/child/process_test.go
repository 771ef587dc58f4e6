package child

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func start(t *testing.T, script string) *Process {
	t.Helper()
	p, err := Start(Command{Bin: "/bin/sh", Args: []string{"-c", script}, Dir: t.TempDir(), Env: Env(nil, map[string]string{"CHILD_TEST": "set"})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	return p
}

func TestProcessSpeaksOverItsPipes(t *testing.T) {
	p := start(t, `read line; echo "got $line in $CHILD_TEST $LOOKOUT_X"`)
	if _, err := io.WriteString(p.Stdin(), "hello\n"); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(p.Stdout()).ReadString('\n')
	if err != nil || line != "got hello in set \n" {
		t.Fatalf("read %q, %v", line, err)
	}
	<-p.Exited()
	if r := p.ExitReason(); r != "it exited" {
		t.Errorf("ExitReason = %q", r)
	}
}

func TestExitReasonSaysHowItEndedAndItsLastStderrLine(t *testing.T) {
	p := start(t, "echo first >&2; echo 'fatal: the last words' >&2; exit 7")
	if _, err := io.Copy(io.Discard, p.Stdout()); err != nil {
		t.Fatal(err)
	}
	if r := p.ExitReason(); r != "it ended (exit status 7): fatal: the last words" {
		t.Errorf("ExitReason = %q", r)
	}
	long := start(t, "printf '%0500d' 0 >&2; exit 1")
	<-long.Exited()
	if n := long.StderrNote(); len(n) > 2+300+len("…") || !strings.HasSuffix(n, "…") {
		t.Errorf("a long stderr line is not cut: %d bytes", len(n))
	}
}

func TestKillEndsTheWholeGroup(t *testing.T) {
	p := start(t, "sleep 60 & echo $!; wait")
	var helper int
	line, _ := bufio.NewReader(p.Stdout()).ReadString('\n')
	for _, c := range strings.TrimSpace(line) {
		helper = helper*10 + int(c-'0')
	}
	p.Kill()
	if r := p.ExitReason(); r != "it ended (signal: killed)" {
		t.Errorf("ExitReason = %q", r)
	}
	waitGone(t, helper)
}

func TestStopClosesStdinThenKills(t *testing.T) {
	polite := start(t, "cat >/dev/null")
	begin := time.Now()
	polite.Stop(5 * time.Second)
	if time.Since(begin) > 3*time.Second {
		t.Errorf("a child that ends with its input took %v to stop", time.Since(begin))
	}
	if r := polite.ExitReason(); r != "it exited" {
		t.Errorf("ExitReason = %q", r)
	}
	stubborn := start(t, "trap '' HUP; exec 0<&-; sleep 60")
	stubborn.Stop(100 * time.Millisecond)
	if r := stubborn.ExitReason(); r != "it ended (signal: killed)" {
		t.Errorf("ExitReason of a stubborn child = %q", r)
	}
}

func TestStopSendsAServerItsStopSignal(t *testing.T) {
	p, err := Start(Command{Bin: "/bin/sh", Args: []string{"-c", "read x || echo no input; exec sleep 60"},
		NoStdin: true, StopSignal: syscall.SIGTERM})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	if p.Stdin() != nil {
		t.Error("a child without stdin has a Stdin")
	}
	line, _ := bufio.NewReader(p.Stdout()).ReadString('\n')
	if line != "no input\n" {
		t.Errorf("the child read %q from its stdin", line)
	}
	p.Stop(time.Minute)
	if r := p.ExitReason(); r != "it ended (signal: terminated)" {
		t.Errorf("ExitReason = %q, want it to have ended on SIGTERM", r)
	}
}

func TestStopKillsTheGroupsOfItsChildrenWhenAsked(t *testing.T) {
	for _, kill := range []bool{false, true} {
		t.Run(fmt.Sprintf("KillChildGroups=%v", kill), func(t *testing.T) {
			p, err := Start(Command{Bin: "/bin/sh", Args: []string{"-c", "setsid sleep 60 >/dev/null 2>&1 & echo $!; cat >/dev/null"}, KillChildGroups: kill})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(p.Kill)
			line, _ := bufio.NewReader(p.Stdout()).ReadString('\n')
			cmd, err := strconv.Atoi(strings.TrimSpace(line))
			if err != nil {
				t.Fatalf("the command's pid: %q", line)
			}
			t.Cleanup(func() { _ = syscall.Kill(cmd, syscall.SIGKILL) })
			// $! is known before setsid has made the command a group leader;
			// Stop lists only the groups that exist when it begins.
			waitGroupLeader(t, cmd)
			p.Stop(time.Minute)
			if kill {
				waitGone(t, cmd)
			} else if syscall.Kill(cmd, 0) != nil {
				t.Error("a command in a session of its own was killed without KillChildGroups")
			}
		})
	}
}

func TestNoteKeepsALineWithTheStderrTail(t *testing.T) {
	p := start(t, "echo on stderr >&2; exit 1")
	<-p.Exited()
	p.Note([]byte("said on stdout"))
	if n := p.StderrNote(); n != ": said on stdout" {
		t.Errorf("StderrNote = %q", n)
	}
}

func TestStartFailsForAMissingProgram(t *testing.T) {
	if _, err := Start(Command{Bin: "/nonexistent/agent"}); err == nil {
		t.Fatal("a missing program started")
	}
}

// waitGroupLeader waits up to 5 s for pid to lead a process group.
func waitGroupLeader(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		pgid, err := syscall.Getpgid(pid)
		if err != nil {
			t.Fatalf("process %d: %v", pid, err)
		}
		if pgid == pid {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d never led a group of its own", pid)
		}
		time.Sleep(time.Millisecond)
	}
}

// waitGone waits up to 5 s for pid to go.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("process %d outlived its group's kill", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestTailBufferKeepsTheEnd(t *testing.T) {
	for _, c := range []struct {
		writes []string
		want   string
	}{
		{[]string{"abc"}, "abc"},
		{[]string{"abc", "def"}, "cdef"},
		{[]string{"abcdefgh"}, "efgh"},
	} {
		b := &tailBuffer{max: 4}
		for _, w := range c.writes {
			b.add([]byte(w))
		}
		if got, _ := b.Tail(); got != c.want {
			t.Errorf("after %q: %q, want %q", c.writes, got, c.want)
		}
	}
}
