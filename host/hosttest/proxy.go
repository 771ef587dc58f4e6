package hosttest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"sync"
	"testing"
)

// Proxy is a TCP proxy on loopback between a client and a host that
// injects faults: it cuts connections (at a random byte of the host's
// stream, mid-frame included), stalls them, refuses new ones for a while,
// and drops whole WebSocket messages the host sends (to open gaps).
// Randomness comes from a seeded source, so a schedule replays.
type Proxy struct {
	t  testing.TB
	ln net.Listener

	mu       sync.Mutex
	target   string
	rng      *rand.Rand
	refuse   bool
	cutMin   int // cut each new connection after a random number of host bytes in [cutMin, cutMax); 0: never
	cutMax   int
	drop     func(payload []byte) bool // drop host messages whose first fragment matches
	conns    map[*proxyConn]struct{}
	accepted int
	dropped  int
}

type proxyConn struct {
	client, server net.Conn
	stalled        bool
	once           sync.Once
}

func (pc *proxyConn) close() {
	pc.once.Do(func() {
		pc.client.Close()
		pc.server.Close()
	})
}

// NewProxy starts a fault proxy in front of target (host:port); seed makes
// its random cuts replayable. It is closed when the test ends.
func NewProxy(t testing.TB, target string, seed uint64) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{t: t, ln: ln, target: target, rng: rand.New(rand.NewPCG(seed, 0x5eed)), conns: map[*proxyConn]struct{}{}}
	go p.accept()
	t.Cleanup(p.Close)
	return p
}

// URL is the proxy's WebSocket URL.
func (p *Proxy) URL() string { return "ws://" + p.ln.Addr().String() + "/v1/ws" }

func (p *Proxy) Close() {
	p.ln.Close()
	p.KillAll()
}

// SetTarget points new connections at another host address.
func (p *Proxy) SetTarget(addr string) {
	p.mu.Lock()
	p.target = addr
	p.mu.Unlock()
}

// Refuse makes new connections fail at once (accepted and closed).
func (p *Proxy) Refuse(on bool) {
	p.mu.Lock()
	p.refuse = on
	p.mu.Unlock()
}

// CutEach cuts every new connection after a random number of host bytes in
// [min, max); CutEach(0, 0) stops cutting.
func (p *Proxy) CutEach(min, max int) {
	p.mu.Lock()
	p.cutMin, p.cutMax = min, max
	p.mu.Unlock()
}

// Drop drops host messages whose payload start matches f (nil: none).
func (p *Proxy) Drop(f func([]byte) bool) {
	p.mu.Lock()
	p.drop = f
	p.mu.Unlock()
}

// Dropped is how many host messages were dropped.
func (p *Proxy) Dropped() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dropped
}

// Accepted is how many connections the proxy accepted.
func (p *Proxy) Accepted() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.accepted
}

// KillAll cuts every open connection now.
func (p *Proxy) KillAll() {
	p.mu.Lock()
	cs := make([]*proxyConn, 0, len(p.conns))
	for c := range p.conns {
		cs = append(cs, c)
	}
	p.mu.Unlock()
	for _, c := range cs {
		c.close()
	}
}

// StallAll stops forwarding, both ways, on every open connection (the
// sockets stay open: a half-dead network). New connections are not
// stalled.
func (p *Proxy) StallAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.stalled = true
	}
}

func (p *Proxy) isStalled(c *proxyConn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return c.stalled
}

func (p *Proxy) accept() {
	for {
		cl, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		refuse, target := p.refuse, p.target
		cut := 0
		if p.cutMax > p.cutMin {
			cut = p.cutMin + p.rng.IntN(p.cutMax-p.cutMin)
		}
		p.accepted++
		p.mu.Unlock()
		if refuse {
			cl.Close()
			continue
		}
		sv, err := net.Dial("tcp", target)
		if err != nil {
			cl.Close()
			continue
		}
		pc := &proxyConn{client: cl, server: sv}
		p.mu.Lock()
		p.conns[pc] = struct{}{}
		p.mu.Unlock()
		go p.pumpUp(pc)
		go p.pumpDown(pc, cut)
	}
}

func (p *Proxy) forget(pc *proxyConn) {
	pc.close()
	p.mu.Lock()
	delete(p.conns, pc)
	p.mu.Unlock()
}

// pumpUp copies client bytes to the host.
func (p *Proxy) pumpUp(pc *proxyConn) {
	defer p.forget(pc)
	buf := make([]byte, 32<<10)
	for {
		n, err := pc.client.Read(buf)
		if n > 0 {
			if p.isStalled(pc) {
				continue // swallowed by the dead network
			}
			if _, werr := pc.server.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// pumpDown copies the host's bytes to the client: first the HTTP upgrade
// response verbatim, then WebSocket frames one by one, so that whole
// messages can be dropped; the cut falls at a byte count, mid-frame or not.
func (p *Proxy) pumpDown(pc *proxyConn, cut int) {
	defer p.forget(pc)
	r := &countingReader{r: pc.server}
	sent := 0
	write := func(b []byte) bool {
		if p.isStalled(pc) {
			return true
		}
		if cut > 0 && sent+len(b) >= cut {
			_, _ = pc.client.Write(b[:cut-sent])
			return false
		}
		sent += len(b)
		_, err := pc.client.Write(b)
		return err == nil
	}
	// The handshake response ends with an empty line.
	var head []byte
	one := make([]byte, 1)
	for !bytes.HasSuffix(head, []byte("\r\n\r\n")) {
		if _, err := io.ReadFull(r, one); err != nil {
			return
		}
		head = append(head, one[0])
	}
	if !write(head) {
		return
	}
	dropping := false
	for {
		frame, fin, opcode, payloadStart, err := readFrame(r)
		if err != nil {
			return
		}
		isData := opcode == 1 || opcode == 2 || opcode == 0
		if isData && opcode != 0 {
			p.mu.Lock()
			drop := p.drop
			p.mu.Unlock()
			dropping = drop != nil && drop(frame[payloadStart:])
			if dropping {
				p.mu.Lock()
				p.dropped++
				p.mu.Unlock()
			}
		}
		if isData && dropping {
			if fin {
				dropping = false
			}
			continue
		}
		if !write(frame) {
			return
		}
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += n
	return n, err
}

// readFrame reads one WebSocket frame (RFC 6455 §5.2) and returns its
// bytes, whether FIN is set, its opcode and where its payload starts.
func readFrame(r io.Reader) (frame []byte, fin bool, opcode byte, payloadStart int, err error) {
	h := make([]byte, 2, 14)
	if _, err = io.ReadFull(r, h); err != nil {
		return
	}
	fin, opcode = h[0]&0x80 != 0, h[0]&0x0f
	masked := h[1]&0x80 != 0
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		ext := make([]byte, 2)
		if _, err = io.ReadFull(r, ext); err != nil {
			return
		}
		h = append(h, ext...)
		n = uint64(binary.BigEndian.Uint16(ext))
	case 127:
		ext := make([]byte, 8)
		if _, err = io.ReadFull(r, ext); err != nil {
			return
		}
		h = append(h, ext...)
		n = binary.BigEndian.Uint64(ext)
	}
	if masked {
		key := make([]byte, 4)
		if _, err = io.ReadFull(r, key); err != nil {
			return
		}
		h = append(h, key...)
	}
	if n > 64<<20 {
		err = errors.New("frame too large")
		return
	}
	frame = make([]byte, len(h)+int(n))
	copy(frame, h)
	if _, err = io.ReadFull(r, frame[len(h):]); err != nil {
		return
	}
	return frame, fin, opcode, len(h), nil
}
