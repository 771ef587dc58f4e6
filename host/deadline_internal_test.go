package host

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// The writer leaves no write deadline armed once it has written what it
// had: an armed one would wake the idle host writeWait later.
func TestWriterDisarmsItsWriteDeadline(t *testing.T) {
	c, client, sock := recordedConnPair(t)
	go c.writeLoop()
	t.Cleanup(c.finish)
	c.enqueue(outMsg{data: []byte("turn"), kind: kindDurable})
	if err := client.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, got, err := client.ReadMessage(); err != nil || string(got) != "turn" {
		t.Fatalf("read %q (%v)", got, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		armed, n := sock.lastWriteDeadline()
		if n >= 2 && armed.IsZero() {
			return // one set for the write, cleared after it
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the write the socket's write deadline is %v (%d set)", armed, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// recordedConnPair is connPair over a socket that records the write
// deadlines set on it.
func recordedConnPair(t *testing.T) (*conn, *websocket.Conn, *deadlineConn) {
	t.Helper()
	ch := make(chan *websocket.Conn, 1)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := upgrader.Upgrade(w, r, nil)
		if err != nil {
			t.Error(err)
			return
		}
		ch <- ws
	}))
	ln := &recordingListener{Listener: srv.Listener, accepted: make(chan *deadlineConn, 1)}
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	client, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	ws := <-ch
	t.Cleanup(func() { ws.Close() })
	return newConn(&Host{conns: map[*conn]struct{}{}}, ws, 64, 1<<20), client, <-ln.accepted
}

type recordingListener struct {
	net.Listener
	accepted chan *deadlineConn
}

func (l *recordingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	d := &deadlineConn{Conn: c}
	select {
	case l.accepted <- d:
	default:
	}
	return d, nil
}

// deadlineConn records the write deadlines set on a socket.
type deadlineConn struct {
	net.Conn
	mu   gosync.Mutex
	last time.Time
	n    int
}

func (d *deadlineConn) SetWriteDeadline(t time.Time) error {
	d.mu.Lock()
	d.last, d.n = t, d.n+1
	d.mu.Unlock()
	return d.Conn.SetWriteDeadline(t)
}

func (d *deadlineConn) SetDeadline(t time.Time) error {
	d.mu.Lock()
	d.last, d.n = t, d.n+1
	d.mu.Unlock()
	return d.Conn.SetDeadline(t)
}

func (d *deadlineConn) lastWriteDeadline() (time.Time, int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.last, d.n
}
