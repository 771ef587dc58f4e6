package child

import (
	"errors"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Command says which program Start runs, and how.
type Command struct {
	// Bin is the executable; Args its arguments (without Bin).
	Bin  string
	Args []string
	// Dir is the working directory; "" is the host's.
	Dir string
	// Env is the whole environment (see Env); nil is the host's own.
	Env []string
}

// stderrTail is how much of a child's stderr a Process keeps for
// ExitReason and StderrNote.
const stderrTail = 4 << 10

// Process is a running child: its stdin and stdout are pipes for the
// bridge's protocol, the last 4 KiB of its stderr are kept to say why it
// ended, and its exit status is collected as soon as it exits. Its
// methods are safe for concurrent use.
type Process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	stderr *tailBuffer

	exited  chan struct{} // closed once the child has been waited for
	exitErr error         // the child's exit status; read after exited
}

// Start runs c in a process group of its own and, where the system has
// one (Linux), with a parent-death signal, so the child never outlives the
// host however the host dies. Its exit is waited for at once; read its
// output from Stdout until it ends.
func Start(c Command) (*Process, error) {
	cmd := exec.Command(c.Bin, c.Args...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	cmd.SysProcAttr = sysProcAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &Process{cmd: cmd, stdin: stdin, stdout: stdout, stderr: &tailBuffer{max: stderrTail}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		p.exitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// Stdin is the child's standard input. Closing it asks most agents to
// end (see Stop).
func (p *Process) Stdin() io.WriteCloser { return p.stdin }

// Stdout is the child's standard output; it ends when the child exits.
func (p *Process) Stdout() io.Reader { return p.stdout }

// Pid is the child's process id (and its process group's).
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Exited is closed once the child has exited and been waited for.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Kill ends the child and its process group at once and waits for it.
func (p *Process) Kill() {
	if p.cmd.Process != nil {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		p.cmd.Process.Kill()
	}
	p.stdin.Close()
	<-p.exited
}

// Stop asks the child to end by closing its stdin, and kills its group
// after grace. Once the child is gone, whatever its group still holds
// (helpers it started) is killed too. Stop returns when the child has
// exited.
func (p *Process) Stop(grace time.Duration) {
	p.stdin.Close()
	select {
	case <-p.exited:
		// The child is gone; its group may still hold helpers.
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	case <-time.After(grace):
		p.Kill()
	}
}

// ExitReason says how the child ended, for a message ("it ended (signal:
// killed): its last stderr line"). It waits up to a second for the exit
// status after the child's output closed.
func (p *Process) ExitReason() string {
	select {
	case <-p.exited:
	case <-time.After(time.Second):
		return "its output closed" + p.StderrNote()
	}
	var ee *exec.ExitError
	switch {
	case p.exitErr == nil:
		return "it exited" + p.StderrNote()
	case errors.As(p.exitErr, &ee):
		return "it ended (" + ee.ProcessState.String() + ")" + p.StderrNote()
	}
	return p.exitErr.Error() + p.StderrNote()
}

// StderrNote is ": " and the last line the child wrote to stderr (cut to
// 300 bytes), or "" when it wrote nothing there.
func (p *Process) StderrNote() string {
	s := strings.TrimSpace(p.stderr.String())
	if s == "" {
		return ""
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return ": " + Cut(s, 300)
}
