package child

import (
	"errors"
	"os"
	"sync"
	"time"
)

// ErrOutputAbandoned ends the reading of a child's stdout that stayed open
// too long after the child exited: a process the child started holds the
// pipe, and what it writes there is not read.
var ErrOutputAbandoned = errors.New("the child exited but its output stayed open")

// outputGrace is how long a child's stdout may stay open after the child
// exited before it is abandoned.
const outputGrace = 2 * time.Second

// output is the read end of a child's stdout pipe, read by the bridge on a
// goroutine of its own. Unlike the pipe of exec.Cmd.StdoutPipe, which Wait
// closes as soon as the child exits (losing the last lines of a child that
// exits quickly), it is read to its end whatever Wait does, and closed only
// then: once the reader saw the end and the child was waited for, or, when
// a process the child started keeps the pipe open, outputGrace after the
// child was waited for. Its Read is for one goroutine; its other methods
// may run on any.
type output struct {
	f *os.File

	mu        sync.Mutex
	ended     bool        // a Read returned an error
	waited    bool        // the child was waited for
	abandoned bool        // closed before the end was read
	closed    bool        // f is closed
	timer     *time.Timer // abandons it after waited
}

func (o *output) Read(b []byte) (int, error) {
	n, err := o.f.Read(b)
	if err == nil {
		return n, nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.abandoned {
		err = ErrOutputAbandoned
	}
	o.ended = true
	if o.waited {
		o.timer.Stop()
		o.closeLocked()
	}
	return n, err
}

// childWaited closes the pipe when its end was read already, and
// abandons it after grace otherwise.
func (o *output) childWaited(grace time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.waited = true
	if o.ended {
		o.closeLocked()
		return
	}
	o.timer = time.AfterFunc(grace, o.abandon)
}

// abandon closes the pipe before its end was read, waking a Read in
// progress (it returns ErrOutputAbandoned).
func (o *output) abandon() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.ended {
		o.abandoned = true
		o.closeLocked()
	}
}

func (o *output) closeLocked() {
	if !o.closed {
		o.closed = true
		o.f.Close()
	}
}
