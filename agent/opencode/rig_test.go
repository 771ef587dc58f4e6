package opencode_test

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/opencode"
	"github.com/lookout-sh/lookout/agent/opencode/opencodetest"
	"github.com/lookout-sh/lookout/host"
)

// rig is a real Lookout host whose agent is the real OpenCode server,
// talking to a fake model on loopback, with a client subscribed to one
// session (see agenttest.Rig).
type rig struct {
	*agenttest.Rig
	bin    string
	fake   *opencodetest.FakeModel
	env    []string
	work   string
	served *opencodetest.Server // the server attached to (rigOptions.attach)
	agent  *opencode.Agent      // the bridge of the host running now
}

type rigOptions struct {
	fake opencodetest.FakeOptions
	home opencodetest.HomeOptions
	// git makes the working directory a git repository, so OpenCode
	// reports patches.
	git bool
	// attach starts an `opencode serve` of the test's own that the bridge
	// attaches to (--opencode-url) rather than start one.
	attach bool
}

func newRig(t *testing.T, o rigOptions) *rig {
	t.Helper()
	r := &rig{bin: opencodetest.Binary(t), fake: opencodetest.NewFakeModel(t, o.fake)}
	r.env = opencodetest.Home(t, r.fake.URL(), o.home)
	if o.git {
		r.work = opencodetest.GitWorkdir(t)
	} else {
		r.work = agenttest.Workdir(t)
	}
	url := ""
	if o.attach {
		r.served = opencodetest.Serve(t, r.bin, r.env, r.work, "0")
		url = r.served.URL
	}
	log := testLogger(t)
	r.Rig = agenttest.NewRig(t, "opencode", func() host.Agent {
		r.agent = opencode.New(opencode.Options{Bin: r.bin, URL: url, Env: r.env, Cwd: r.work, InterruptGrace: 5 * time.Second, Logger: log})
		return r.agent
	})
	r.Work, r.Bridge, r.LastPrompts = r.work, r, r.lastTurnPrompts
	r.PID = func(string) int { return r.agent.ProcessID() } // one server for every session
	return r
}

// fork returns a rig on the same host and OpenCode server with a session
// and client of its own, for subtest t.
func (r *rig) fork(t *testing.T) *rig {
	t.Helper()
	f := *r
	f.Rig = r.Fork(t)
	return &f
}

// lastTurnPrompts lists the user messages of the fake model's last turn
// request.
func (r *rig) lastTurnPrompts() []string {
	reqs := r.fake.TurnRequests()
	if len(reqs) == 0 {
		return nil
	}
	return reqs[len(reqs)-1].Prompts()
}

// testLogger sends the bridge's diagnostics to the test's log.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
