package child

import "io"

// Conn is the plumbing of a bridge's connection to its child over stdio:
// JSON lines to the child (Out), the bridge's requests waiting for their
// answers (Calls, named by K, answered by A), and everything else the
// child says, queued in order for one consumer (Queue of M). The bridge's
// own connection type embeds it and adds its protocol: what its requests
// look like, and how a line is told apart as an answer or a message.
type Conn[K comparable, A, M any] struct {
	Out   *LineWriter
	Calls *Calls[K, A]
	Queue *Queue[M]
}

// NewConn returns a connection writing to w (the child's stdin). Its
// requests are named by id and fail with errClosed once the child's
// output has ended, as do its writes once the child has gone.
func NewConn[K comparable, A, M any](w io.Writer, errClosed error, id func(seq int64) K) *Conn[K, A, M] {
	return &Conn[K, A, M]{Out: NewLineWriter(w, errClosed), Calls: NewCalls[K, A](errClosed, id), Queue: NewQueue[M]()}
}

// Serve reads r (the child's stdout) until it ends, one line of at most
// max bytes at a time (see ReadLines): line gets every line, tooLong the
// head of every longer one, to answer a call or push a message. Then it
// fails the calls still waiting and closes the queue, after everything
// read is in it. It returns why the reading ended (io.EOF when the child
// closed its output). Run it on a goroutine of its own.
func (c *Conn[K, A, M]) Serve(r io.Reader, max int, line func([]byte), tooLong func(head []byte)) error {
	err := ReadLines(r, max, line, tooLong)
	c.Calls.Close()
	c.Queue.Close()
	return err
}
