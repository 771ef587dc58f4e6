package render

import "sync"

// memo remembers build's value for each key, safe for concurrent use. It
// holds at most max keys: when full it forgets them all, so keys taken
// from the text cannot grow it without bound.
type memo[K comparable, V any] struct {
	mu  sync.Mutex
	max int
	m   map[K]V
}

func newMemo[K comparable, V any](limit int) *memo[K, V] {
	return &memo[K, V]{max: limit, m: map[K]V{}}
}

// get returns the value remembered for k, or builds, remembers and returns
// it. build runs under the memo's lock.
func (c *memo[K, V]) get(k K, build func(K) V) V {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[k]; ok {
		return v
	}
	if len(c.m) >= c.max {
		clear(c.m)
	}
	v := build(k)
	c.m[k] = v
	return v
}
