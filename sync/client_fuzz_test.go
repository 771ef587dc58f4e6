package sync

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// FuzzClientFrames feeds a running sync client newline-separated frames
// from a hostile host (hostile_test.go), after a normal initialize and
// subscribe. Whatever the frames: the client does not panic, keeps
// answering (Inspect), and its fold stays one a snapshot can carry (it
// re-encodes and loads back to the same bytes).
func FuzzClientFrames(f *testing.F) {
	frames, sent := make(chan string), make(chan struct{})
	h := newHostileHost(f, func(send func(string) error) {
		for fr := range frames { // the frames go out on whichever connection is live
			err := send(fr)
			sent <- struct{}{}
			if err != nil {
				return
			}
		}
	})
	f.Cleanup(func() { close(frames) })
	c := runScaledClient(f, Options{URL: "ws" + strings.TrimPrefix(h.srv.URL, "http") + "/v1/ws", Token: "t",
		SessionID: "s1", CacheDir: "-", Deltas: true}, 0.01)
	waitFor(f, c.Client, "live", isLive)
	n := func(method string, seq, prev int, rest string) string {
		p := `"sessionId":"s1","viewCursor":"v:s1:` + itoa(seq) + `"`
		if prev >= 0 {
			p += `,"prevCursor":` + map[bool]string{true: "null", false: `"v:s1:` + itoa(prev) + `"`}[prev == 0]
		}
		if rest != "" {
			p += "," + rest
		}
		return `{"jsonrpc":"2.0","method":"` + method + `","params":{` + p + `}}`
	}
	f.Add(strings.Join([]string{
		n(model.MethodItemStarted, 1, 0, `"item":{"itemId":"m","kind":"agentMessage","turnId":"t","revision":1,"status":"inProgress","position":1,"text":""}`),
		n(model.MethodItemDelta, 2, -1, `"itemId":"m","delta":"hi"`),
		n(model.MethodItemCompleted, 3, 1, `"item":{"itemId":"m","kind":"agentMessage","turnId":"t","revision":2,"status":"completed","position":1,"text":"hi"}`),
	}, "\n"))
	f.Add(n(model.MethodItemCompleted, 9, 7, `"item":{"itemId":"g","kind":"x","revision":1,"status":"completed","position":9}`))
	f.Add(`{"jsonrpc":"2.0","id":99,"result":{}}` + "\n" + `not json` + "\n" + `{"jsonrpc":"2.0","method":"heartbeat"}`)
	f.Add(n(model.MethodApprovalRequested, 4, 3, `"approvalId":"a","turnId":"t","itemId":"m","summary":"x\u001b]52;c;eA==\u0007","options":["approve"]`))
	f.Add(n(model.MethodSessionState, 1, 0, `"title":"\u009b31m"`) + "\n" + n(model.MethodTurnStarted, 1, 0, `"turnId":"t","startedAt":"x"`))
	f.Fuzz(func(t *testing.T, data string) {
		for i, frame := range strings.Split(data, "\n") {
			if i == 64 {
				break
			}
			select {
			case frames <- frame:
				<-sent
			case <-time.After(10 * time.Second):
				t.Fatal("the client never reconnected to take the next frame")
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var enc []byte
		var snap model.Snapshot
		err := c.Inspect(ctx, func(st *model.State) {
			enc = st.Encode()
			snap = st.Snapshot(0)
		})
		if err != nil {
			t.Fatalf("the client stopped answering after %q: %v", data, err)
		}
		again := model.NewState("s1")
		if _, err := again.LoadSnapshot("s1", "e1", snap); err != nil {
			t.Fatalf("the client's fold does not load back from its own snapshot: %v", err)
		}
		if !bytes.Equal(again.Encode(), enc) {
			t.Fatalf("the client's fold changes through its own snapshot:\n%s\n%s", enc, again.Encode())
		}
	})
}
