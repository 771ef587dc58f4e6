package opencode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/lookout-sh/lookout/agent/child"
	"github.com/lookout-sh/lookout/model"
)

// server is one connection to an OpenCode server: a `opencode serve` the
// bridge started (p), or one it attached to. Its event goroutine is the
// only reader of the server's event stream; it routes each event to the
// session it names. A server that stops (its process exits, its stream
// ends) is dead for good: the next turn connects anew.
type server struct {
	a *Agent
	c *client
	p *process // nil when attached

	ctx    context.Context // ends at shutdown
	cancel context.CancelFunc

	connected chan struct{} // closed at the stream's server.connected
	connOnce  sync.Once
	dead      chan struct{} // closed once the server is gone
	reason    string        // how it went; read after dead

	mu      sync.Mutex
	windows map[string]int64 // context window by "provider/model"
}

// heartbeatTimeout is how long the event stream may stay silent (OpenCode
// sends server.heartbeat every 10 s) before the server counts as gone.
const heartbeatTimeout = 45 * time.Second

// connect starts a server (or attaches to Options.URL) and opens its event
// stream.
func (a *Agent) connect(ctx context.Context) (*server, error) {
	start := time.Now()
	sctx, cancel := context.WithTimeout(ctx, a.opts.StartTimeout)
	defer cancel()
	srv := &server{a: a, connected: make(chan struct{}), dead: make(chan struct{})}
	if a.opts.URL != "" {
		srv.c = newClient(a.opts.URL, a.opts.Username, a.opts.Password)
	} else {
		p, err := startProcess(sctx, a.opts, a.opts.Cwd)
		if err != nil {
			return nil, err
		}
		srv.p = p
		srv.c = newClient(p.url, serverUser, p.password)
	}
	srv.ctx, srv.cancel = context.WithCancel(context.Background())
	body, err := srv.c.events(srv.ctx)
	if err != nil {
		srv.shutdown()
		return nil, fmt.Errorf("open the event stream of %s: %w%s", srv.where(), err, srv.note())
	}
	go srv.run(body)
	select {
	case <-srv.connected:
		srv.loadWindows(sctx)
		a.log.Info("opencode server ready", "url", srv.c.base, "started", srv.p != nil, "took", time.Since(start).Round(time.Millisecond))
		return srv, nil
	case <-srv.dead:
		return nil, fmt.Errorf("the OpenCode server at %s went away: %s", srv.c.base, srv.reason)
	case <-sctx.Done():
		srv.shutdown()
		return nil, fmt.Errorf("the OpenCode server at %s did not open its event stream: %w", srv.c.base, sctx.Err())
	}
}

func (srv *server) where() string {
	if srv.p != nil {
		return "opencode serve (" + srv.c.base + ")"
	}
	return "the OpenCode server at " + srv.c.base
}

func (srv *server) note() string {
	if srv.p != nil {
		return srv.p.StderrNote()
	}
	return ""
}

func (srv *server) alive() bool {
	select {
	case <-srv.dead:
		return false
	default:
		return true
	}
}

// run reads the event stream until it ends, then declares the server gone.
func (srv *server) run(body io.ReadCloser) {
	watchdog := time.AfterFunc(heartbeatTimeout, func() { body.Close() })
	rd := newSSEReader(body)
	var err error
	for {
		var data []byte
		data, err = rd.next()
		if err != nil {
			break
		}
		watchdog.Reset(heartbeatTimeout)
		ge, ok := decodeGlobalEvent(data)
		if !ok {
			ge = globalEvent{}
			if jerr := json.Unmarshal(data, &ge); jerr != nil {
				srv.malformed(data, jerr)
				continue
			}
		}
		if ge.Payload.Type == "" {
			srv.malformed(data, nil)
			continue
		}
		if ge.Payload.Type == "server.connected" {
			srv.connOnce.Do(func() { close(srv.connected) })
			continue
		}
		srv.a.route(srv, ge.Payload)
	}
	watchdog.Stop()
	body.Close()
	srv.end(err)
}

// malformed reports an event the bridge cannot read to the turns running
// on this server: it cannot tell whose it was.
func (srv *server) malformed(data []byte, err error) {
	if err == nil {
		err = fmt.Errorf("an event without a type")
	}
	srv.a.log.Warn("malformed opencode event", "err", err, "data", child.Cut(string(data), 300))
	for _, ts := range srv.a.activeTurns(srv) {
		_ = ts.t.Warning(model.Warning{RequestKind: "agent", Code: "malformedAgentOutput",
			Message: fmt.Sprintf("OpenCode sent an event Lookout could not read (%v): %s", err, child.Cut(string(data), 300))})
	}
}

// end declares the server gone, fails the turns running on it and stops
// what is left of its process.
func (srv *server) end(err error) {
	select {
	case <-srv.dead:
		return
	default:
	}
	stream := "its event stream ended"
	if err != nil && !errors.Is(err, io.EOF) {
		stream = "its event stream failed: " + err.Error()
	}
	switch {
	case srv.ctx.Err() != nil:
		srv.reason = "the bridge shut it down"
	case srv.p != nil:
		select {
		case <-srv.p.Exited():
			srv.reason = srv.p.exitReason()
		case <-time.After(time.Second):
			// Still running, but of no use without its events.
			srv.reason = stream + "; the bridge stopped it"
		}
	default:
		srv.reason = stream
	}
	close(srv.dead)
	if srv.p != nil {
		go srv.p.Kill() // reap it, and any helpers left in its group
	}
	srv.a.serverEnded(srv)
}

// shutdown stops the server: its event stream, and its process if the
// bridge started it.
func (srv *server) shutdown() {
	if srv.cancel != nil {
		srv.cancel()
	}
	if srv.p != nil {
		srv.p.Stop(time.Second)
	}
}

// loadWindows reads the context window of every configured model
// (GET /config/providers), best effort.
func (srv *server) loadWindows(ctx context.Context) {
	var res struct {
		Providers []struct {
			ID     string `json:"id"`
			Models map[string]struct {
				Limit struct {
					Context int64 `json:"context"`
				} `json:"limit"`
			} `json:"models"`
		} `json:"providers"`
	}
	if err := srv.c.do(ctx, "GET", "/config/providers", "", nil, &res); err != nil {
		srv.a.log.Warn("opencode providers not read", "err", err)
		return
	}
	w := map[string]int64{}
	for _, p := range res.Providers {
		for id, m := range p.Models {
			if m.Limit.Context > 0 {
				w[p.ID+"/"+id] = m.Limit.Context
			}
		}
	}
	srv.mu.Lock()
	srv.windows = w
	srv.mu.Unlock()
}

// contextWindow is the context window of a "provider/model", or 0.
func (srv *server) contextWindow(model string) int64 {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return srv.windows[model]
}
