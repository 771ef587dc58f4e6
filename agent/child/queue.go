package child

import "sync"

// Queue is an unbounded first-in first-out queue with one consumer: the
// goroutine reading a child's output pushes what it read, and the bridge's
// dispatch goroutine takes it in order. Being unbounded, a slow consumer
// never blocks the reader, so an answer the consumer waits for (read by
// the same reader) always gets through. It is safe for concurrent use.
type Queue[T any] struct {
	mu     sync.Mutex
	items  []T
	closed bool
	ready  chan struct{} // holds a signal when items grew
	done   chan struct{} // closed by Close
}

// NewQueue returns an empty, open queue.
func NewQueue[T any]() *Queue[T] {
	return &Queue[T]{ready: make(chan struct{}, 1), done: make(chan struct{})}
}

// Push appends v and signals Ready.
func (q *Queue[T]) Push(v T) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// Next takes the oldest value; ok is false when the queue is empty. Wait
// on Ready (and Done) for more.
func (q *Queue[T]) Next() (v T, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return v, false
	}
	v = q.items[0]
	var zero T
	q.items[0] = zero // let the consumer's value go
	q.items = q.items[1:]
	return v, true
}

// Ready receives a signal after Push; one signal may stand for several
// values, so the consumer takes with Next until it is empty.
func (q *Queue[T]) Ready() <-chan struct{} { return q.ready }

// Close marks the end of the values: Done is closed. Values pushed before
// stay to be taken. Close may be called more than once.
func (q *Queue[T]) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.closed = true
		close(q.done)
	}
}

// Done is closed by Close.
func (q *Queue[T]) Done() <-chan struct{} { return q.done }

// Consume hands every value to handle, in order, until the queue is closed
// and empty; then it returns. It is the consumer's loop.
func (q *Queue[T]) Consume(handle func(T)) {
	for {
		v, ok := q.Next()
		if !ok {
			select {
			case <-q.ready:
				continue
			case <-q.done:
				if v, ok = q.Next(); !ok {
					return
				}
			}
		}
		handle(v)
	}
}
