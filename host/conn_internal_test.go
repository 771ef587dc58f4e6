package host

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// connPair returns a host-side conn (its writer not started, so its queue
// only fills) and the client end of a real WebSocket.
func connPair(t *testing.T, limit int) (*conn, *websocket.Conn) {
	return connPairBytes(t, limit, 1<<20)
}

// connPairBytes is connPair with a byte bound.
func connPairBytes(t *testing.T, limit, bytes int) (*conn, *websocket.Conn) {
	t.Helper()
	ch := make(chan *websocket.Conn, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := upgrader.Upgrade(w, r, nil)
		if err != nil {
			t.Error(err)
			return
		}
		ch <- ws
	}))
	t.Cleanup(srv.Close)
	client, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	ws := <-ch
	t.Cleanup(func() { ws.Close() })
	return newConn(&Host{conns: map[*conn]struct{}{}}, ws, limit, bytes), client
}

func queued(c *conn) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for _, m := range c.q {
		b.WriteString(string(m.data))
		b.WriteByte(' ')
	}
	return strings.TrimSpace(b.String())
}

func TestOutboundQueueShedsDeltasThenClosesWith1013(t *testing.T) {
	c, client := connPair(t, 4)
	delta := func(item, text string) outMsg {
		return outMsg{data: []byte(item + ":" + text), kind: kindDelta, shedKey: "s\x00" + item}
	}
	full := func(item string) outMsg {
		return outMsg{data: []byte(item + ":full"), kind: kindItemFull, shedKey: "s\x00" + item}
	}
	for i := range 4 {
		c.enqueue(delta("A", string(rune('0'+i))))
	}
	c.enqueue(delta("B", "0")) // full: dropped, B is now shed
	c.enqueue(outMsg{data: []byte("warning"), kind: kindEphemeral})
	if got := queued(c); got != "A:0 A:1 A:2 A:3" {
		t.Fatalf("queue %q", got)
	}
	// A durable event evicts every queued delta rather than be refused.
	c.enqueue(outMsg{data: []byte("turn"), kind: kindDurable})
	if got := queued(c); got != "turn" {
		t.Fatalf("queue %q", got)
	}
	// Both items are shed: their deltas stay out (the client's text must
	// stay a prefix) until each item's next full object.
	c.enqueue(delta("A", "4"))
	c.enqueue(delta("B", "1"))
	c.enqueue(full("A"))
	c.enqueue(delta("A", "5"))
	c.enqueue(delta("B", "2"))
	if got := queued(c); got != "turn A:full A:5" {
		t.Fatalf("queue %q", got)
	}
	// Responses and durable events that cannot fit close the connection
	// with 1013.
	c.enqueue(outMsg{data: []byte("answer"), kind: kindResponse})
	c.enqueue(outMsg{data: []byte("more"), kind: kindDurable}) // evicts A:5
	if got := queued(c); got != "turn A:full answer more" {
		t.Fatalf("queue %q", got)
	}
	c.enqueue(outMsg{data: []byte("overflow"), kind: kindDurable})
	if got := queued(c); got != "" {
		t.Fatalf("a closed connection still queues %q", got)
	}
	if err := client.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	_, _, err := client.ReadMessage()
	if !websocket.IsCloseError(err, websocket.CloseTryAgainLater) {
		t.Fatalf("client read %v, want close 1013", err)
	}
	c.enqueue(outMsg{data: []byte("late"), kind: kindResponse}) // no panic, nothing queued
	if got := queued(c); got != "" {
		t.Fatalf("queue %q after close", got)
	}
}

func TestOutboundQueueIsBoundedInBytes(t *testing.T) {
	c, client := connPairBytes(t, 100, 10)
	// A frame alone always fits, even above the bound.
	c.enqueue(outMsg{data: []byte("0123456789abc"), kind: kindResponse})
	if got := queued(c); got != "0123456789abc" {
		t.Fatalf("queue %q", got)
	}
	c.mu.Lock()
	c.q, c.qBytes = nil, 0
	c.mu.Unlock()
	c.enqueue(outMsg{data: []byte("aaaa"), kind: kindResponse})
	c.enqueue(outMsg{data: []byte("dd"), kind: kindDelta, shedKey: "s\x00I"})
	c.enqueue(outMsg{data: []byte("bbbb"), kind: kindDurable})
	c.enqueue(outMsg{data: []byte("ee"), kind: kindDelta, shedKey: "s\x00I"}) // 12 bytes: shed
	if got := queued(c); got != "aaaa dd bbbb" {
		t.Fatalf("queue %q", got)
	}
	c.enqueue(outMsg{data: []byte("cc"), kind: kindResponse}) // evicts the delta
	if got := queued(c); got != "aaaa bbbb cc" {
		t.Fatalf("queue %q", got)
	}
	c.enqueue(outMsg{data: []byte("answer"), kind: kindResponse}) // 16 bytes: close
	if got := queued(c); got != "" {
		t.Fatalf("a closed connection still queues %q", got)
	}
	if c.qBytes != 0 {
		t.Fatalf("%d bytes counted after close", c.qBytes)
	}
	if err := client.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := client.ReadMessage(); !websocket.IsCloseError(err, websocket.CloseTryAgainLater) {
		t.Fatalf("client read %v, want close 1013", err)
	}
}
