package child

import (
	"errors"
	"io"
	"os"
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

	// NoStdin gives the child the null device as its stdin, for a child
	// that reads none (a server); Stdin is then nil.
	NoStdin bool
	// StopSignal, when not 0, is sent to the child's process group by
	// Stop, for a child that does not end when its stdin closes (a server:
	// SIGTERM).
	StopSignal syscall.Signal
	// KillChildGroups has Stop also kill the process groups that the
	// child's own children lead: commands it started in sessions of their
	// own, which killing the child's group does not reach. Only where the
	// system lists processes (Linux); elsewhere they are left.
	KillChildGroups bool
}

// stderrTail is how much of a child's stderr a Process keeps for
// ExitReason and StderrNote: enough for an error and the backtrace
// printed after it.
const stderrTail = 16 << 10

// Process is a running child: its stdin and stdout are pipes for the
// bridge's protocol, the last 16 KiB of its stderr are kept to say why it
// ended, and its exit status is collected as soon as it exits. Its
// methods are safe for concurrent use, except reading Stdout, which is
// for one goroutine.
type Process struct {
	cmd    *exec.Cmd
	opts   Command
	stdin  io.WriteCloser // nil with NoStdin
	stdout *output
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
	// Wait gives up on the stderr copy this long after the child exited:
	// a process the child started may hold the pipe open forever.
	cmd.WaitDelay = outputGrace
	// The stdout pipe is the bridge's own, not Wait's: Wait would close it
	// when the child exits, maybe before its last lines were read.
	stdoutR, stdoutW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	var stdin io.WriteCloser
	if !c.NoStdin {
		if stdin, err = cmd.StdinPipe(); err != nil {
			stdoutR.Close()
			stdoutW.Close()
			return nil, err
		}
	}
	cmd.Stdout = stdoutW
	p := &Process{cmd: cmd, opts: c, stdin: stdin, stdout: &output{f: stdoutR}, stderr: &tailBuffer{max: stderrTail}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	err = cmd.Start()
	stdoutW.Close() // the child has its copy; the pipe ends when it (and whatever it passed it on to) closes it
	if err != nil {
		stdoutR.Close()
		return nil, err
	}
	go func() {
		err := cmd.Wait()
		if errors.Is(err, exec.ErrWaitDelay) {
			err = nil // it exited successfully; only its stderr stayed open
		}
		p.exitErr = err
		close(p.exited)
		p.stdout.childWaited(outputGrace)
	}()
	return p, nil
}

// Stdin is the child's standard input (nil with NoStdin). Closing it asks
// most agents to end (see Stop).
func (p *Process) Stdin() io.WriteCloser { return p.stdin }

func (p *Process) closeStdin() {
	if p.stdin != nil {
		p.stdin.Close()
	}
}

// Stdout is the child's standard output, for one goroutine to read to its
// end: io.EOF once the child, and every process it passed its stdout on
// to, has closed it, or ErrOutputAbandoned when such a process still
// holds it a while after the child exited.
func (p *Process) Stdout() io.Reader { return p.stdout }

// Pid is the child's process id (and its process group's).
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Exited is closed once the child has exited and been waited for.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Kill ends the child and its process group at once and waits for it.
func (p *Process) Kill() {
	signalGroup(p.Pid(), syscall.SIGKILL)
	_ = p.cmd.Process.Kill() // fails only when it has exited already
	p.closeStdin()
	<-p.exited
}

// signalGroup sends sig to the process group pgid leads. It fails only
// when the group is gone already, which is what the caller wants.
func signalGroup(pgid int, sig syscall.Signal) {
	_ = syscall.Kill(-pgid, sig)
}

// Stop asks the child to end, closing its stdin and sending its group
// StopSignal (when set), and kills its group after grace. Once the child
// is gone, whatever its group still holds (helpers it started) is killed
// too, and with KillChildGroups the groups its children led when Stop
// began. Stop returns when the child has exited.
func (p *Process) Stop(grace time.Duration) {
	if p.opts.KillChildGroups {
		// Listed now: once the child is gone, they are no longer its.
		groups := childGroups(p.Pid())
		defer func() {
			for _, g := range groups {
				signalGroup(g, syscall.SIGKILL)
			}
		}()
	}
	p.closeStdin()
	if p.opts.StopSignal != 0 {
		signalGroup(p.Pid(), p.opts.StopSignal)
	}
	select {
	case <-p.exited:
		// The child is gone; its group may still hold helpers.
		signalGroup(p.Pid(), syscall.SIGKILL)
	case <-time.After(grace):
		p.Kill()
	}
}

// ExitReason says how the child ended, for a message ("it ended (exit
// status 1): Error: …", with StderrNote's lines). It waits up to a second for the exit
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
		return "it ended (" + ee.String() + ")" + p.StderrNote()
	}
	return p.exitErr.Error() + p.StderrNote()
}

// Note keeps line with the tail of the child's stderr, for a child that
// says why it stops elsewhere (a server logging to its stdout).
func (p *Process) Note(line []byte) {
	p.stderr.add(line)
	p.stderr.add([]byte{'\n'})
}

// StderrNote is ": " and the lines of the tail of the child's stderr (and
// what Note kept) that say why it failed, joined with " / " (see
// UsefulStderr), or "" when there are none.
func (p *Process) StderrNote() string {
	lines := UsefulStderr(p.stderr.Tail())
	if len(lines) == 0 {
		return ""
	}
	return ": " + strings.Join(lines, " / ")
}
