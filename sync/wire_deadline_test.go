package sync

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// Answering a ping leaves no write deadline armed on the client's
// socket: an armed one would wake the idle client writeTimeout later.
func TestPongDisarmsTheWriteDeadline(t *testing.T) {
	ponged := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			t.Error(err)
			return
		}
		defer ws.Close()
		ws.SetPongHandler(func(string) error { ponged <- struct{}{}; return nil })
		if err := ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(10*time.Second)); err != nil {
			t.Error(err)
			return
		}
		for { // reading runs the pong handler
			if _, _, err := ws.NextReader(); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	var sock *writeDeadlines
	d := websocket.Dialer{NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		sock = &writeDeadlines{Conn: c}
		return sock, nil
	}}
	ws, _, err := d.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := newWSConn(ws, time.Minute)
	defer c.Close()
	select {
	case <-ponged:
	case <-time.After(10 * time.Second):
		t.Fatal("the client never answered the ping")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		armed, n := sock.last()
		if n >= 2 && armed.IsZero() {
			return // one set for the pong, cleared after it
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the pong the socket's write deadline is %v (%d set)", armed, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// writeDeadlines records the write deadlines set on a socket.
type writeDeadlines struct {
	net.Conn
	mu       gosync.Mutex
	deadline time.Time
	n        int
}

func (w *writeDeadlines) SetWriteDeadline(t time.Time) error {
	w.mu.Lock()
	w.deadline, w.n = t, w.n+1
	w.mu.Unlock()
	return w.Conn.SetWriteDeadline(t)
}

func (w *writeDeadlines) last() (time.Time, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.deadline, w.n
}
