package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
)

// Live frames of a session (deltas, and every notification its writer
// sends subscribers) go out on NS.live.SESSION: plain NATS, never stored.
// A host serving a session it does not write relays them to its clients.

func (m *Member) liveSubject(sid string) string { return m.ns + ".live." + key(sid) }

// PublishLive sends one live frame of session sid to every relaying host.
func (m *Member) PublishLive(sid string, frame []byte) error {
	return m.nc.Publish(m.liveSubject(sid), frame)
}

// SubscribeLive calls fn, in order, with every live frame of session sid
// published from now on, until stop is called.
func (m *Member) SubscribeLive(sid string, fn func(frame []byte)) (stop func() error, err error) {
	sub, err := m.nc.Subscribe(m.liveSubject(sid), func(msg *nats.Msg) { fn(msg.Data) })
	if err != nil {
		return nil, err
	}
	// The subscription must be in place at the server before the caller
	// relies on it.
	if err := m.nc.Flush(); err != nil {
		_ = sub.Unsubscribe() // the flush error is the one to report
		return nil, err
	}
	return sub.Unsubscribe, nil
}

// A Handler executes one JSON-RPC request (method and params) forwarded
// by another host, as the local host would answer it: a result, or an
// error object.
type Handler func(ctx context.Context, method string, params json.RawMessage) (result json.RawMessage, rpcErr json.RawMessage)

// rpcEnvelope is a forwarded request or its answer on the wire.
type rpcEnvelope struct {
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

func (m *Member) rpcSubject(hostID string) string { return m.ns + ".rpc." + hostID }

// Serve answers requests other hosts forward to this one with h, until
// stop is called.
func (m *Member) Serve(h Handler) (stop func() error, err error) {
	sub, err := m.nc.Subscribe(m.rpcSubject(m.cfg.HostID), func(msg *nats.Msg) {
		var req rpcEnvelope
		var resp rpcEnvelope
		if err := json.Unmarshal(msg.Data, &req); err != nil || req.Method == "" {
			resp.Error = json.RawMessage(`{"code":-32600,"message":"fleet: malformed forwarded request"}`)
		} else {
			ctx, cancel := withTimeout(context.Background())
			resp.Result, resp.Error = h(ctx, req.Method, req.Params)
			cancel()
		}
		b, _ := json.Marshal(resp)
		_ = msg.Respond(b) // a requester that gave up asks again
	})
	if err != nil {
		return nil, err
	}
	if err := m.nc.Flush(); err != nil {
		_ = sub.Unsubscribe()
		return nil, err
	}
	return sub.Unsubscribe, nil
}

// ErrNoHost: no member serves the host a request was forwarded to.
var ErrNoHost = errors.New("fleet: the session's host does not answer")

// Forward sends a JSON-RPC request to host hostID and returns its answer.
// A request whose answer is lost is sent again until ctx ends: forward
// only requests that are idempotent (turn/submit is, by its commandId).
func (m *Member) Forward(ctx context.Context, hostID, method string, params json.RawMessage) (result, rpcErr json.RawMessage, err error) {
	req, err := json.Marshal(rpcEnvelope{Method: method, Params: params})
	if err != nil {
		return nil, nil, err
	}
	for {
		actx, cancel := context.WithTimeout(ctx, 2*time.Second)
		msg, err := m.nc.RequestWithContext(actx, m.rpcSubject(hostID), req)
		cancel()
		if err == nil {
			var resp rpcEnvelope
			if err := json.Unmarshal(msg.Data, &resp); err != nil {
				return nil, nil, fmt.Errorf("fleet: answer from %s: %w", hostID, err)
			}
			return resp.Result, resp.Error, nil
		}
		if errors.Is(err, nats.ErrNoResponders) {
			return nil, nil, fmt.Errorf("%w: %s", ErrNoHost, hostID)
		}
		if ctx.Err() != nil {
			return nil, nil, err
		}
	}
}
