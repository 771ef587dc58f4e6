package sync

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// Leaving a session (the client stops) sends session/unsubscribe before the
// socket closes (docs/sync.md, "Leaving a session"). A scripted host
// records what the client sends.
func TestStopUnsubscribes(t *testing.T) {
	got := make(chan string, 64)
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		for {
			_, data, err := ws.ReadMessage()
			if err != nil {
				return
			}
			var req struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if err := json.Unmarshal(data, &req); err != nil {
				t.Errorf("the client sent a frame that is not JSON: %s", data)
				return
			}
			got <- req.Method
			result := `{}`
			switch req.Method {
			case "initialize":
				result = `{"serverInfo":{"name":"scripted"},"protocolVersion":1,"durability":"durable","features":{}}`
			case "session/subscribe":
				result = `{"epoch":"e1","head":"v:s1:0","delivery":"snapshot","snapshot":{"cursor":"v:s1:0","durableCursor":"v:s1:0","items":[],"hasOlder":false,"activeTurn":null,"queuedTurns":[],"pendingApprovals":[],"state":{}}}`
			case "view/page":
				result = `{"epoch":"e1","events":[],"startCursor":"v:s1:0","endCursor":"v:s1:0","hasNewer":false,"hasOlder":false}`
			}
			if err := ws.WriteMessage(websocket.TextMessage, []byte(`{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":`+result+`}`)); err != nil {
				return
			}
		}
	}))
	defer srv.Close()

	c := runClient(t, Options{URL: "ws" + strings.TrimPrefix(srv.URL, "http") + "/v1/ws", Token: "t", SessionID: "s1"})
	deadline := time.Now().Add(waitTimeout)
	for c.Current().Freshness.State != Live {
		if time.Now().After(deadline) {
			t.Fatalf("never live: %+v", c.Current().Freshness)
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.Stop()
	for {
		select {
		case m := <-got:
			if m == "session/unsubscribe" {
				return
			}
		case <-time.After(waitTimeout):
			t.Fatal("the client closed without session/unsubscribe")
		}
	}
}
