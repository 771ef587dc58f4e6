package host

// rejectionMemory is what a session remembers of its durable turn/submit
// rejections: the newest bound of them, by commandId. Older ones are
// forgotten (their commandIds become unknown), so that a client that keeps
// sending bad prompts cannot grow the host or its journal without bound.
// The zero value is not usable; use newRejectionMemory.
type rejectionMemory struct {
	bound  int
	reason map[string]string // commandId -> reason
	order  []string          // commandIds, oldest first
}

func newRejectionMemory(bound int) *rejectionMemory {
	return &rejectionMemory{bound: bound, reason: map[string]string{}}
}

// get returns the reason commandId was rejected for, if it is remembered.
func (m *rejectionMemory) get(cid string) (string, bool) {
	r, ok := m.reason[cid]
	return r, ok
}

// add remembers a rejection (a commandId already remembered keeps its
// first reason and place) and returns the commandIds it forgot to stay
// within the bound, oldest first.
func (m *rejectionMemory) add(cid, reason string) (forgotten []string) {
	if _, ok := m.reason[cid]; ok {
		return nil
	}
	m.reason[cid] = reason
	m.order = append(m.order, cid)
	if over := len(m.order) - m.bound; over > 0 {
		forgotten = append(forgotten, m.order[:over]...)
		for _, c := range forgotten {
			delete(m.reason, c)
		}
		m.order = append(m.order[:0:0], m.order[over:]...)
	}
	return forgotten
}

// len is how many rejections are remembered.
func (m *rejectionMemory) len() int { return len(m.order) }
