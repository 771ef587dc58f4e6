package codex_test

import (
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/codex"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
	"github.com/lookout-sh/lookout/host"
)

// rig is a real Lookout host whose agent is the real Codex app-server,
// talking to a fake model on loopback, with a client subscribed to one
// session (see agenttest.Rig).
type rig struct {
	*agenttest.Rig
	bin   string
	fake  *codextest.FakeModel
	env   []string
	work  string
	agent *codex.Agent // the bridge of the host running now
}

type rigOptions struct {
	fake codextest.FakeOptions
	home codextest.HomeOptions
}

func newRig(t *testing.T, o rigOptions) *rig { return newRigTB(t, o) }

func newRigTB(t testing.TB, o rigOptions) *rig {
	t.Helper()
	r := &rig{bin: codextest.Binary(t), fake: codextest.NewFakeModel(t, o.fake)}
	r.env = codextest.Home(t, r.fake.URL(), o.home)
	r.work = agenttest.Workdir(t)
	r.Rig = agenttest.NewRig(t, "codex", func() host.Agent {
		r.agent = codex.New(codex.Options{Bin: r.bin, Env: r.env, Cwd: r.work, InterruptGrace: 5 * time.Second})
		return r.agent
	})
	r.Work, r.Bridge, r.LastPrompts = r.work, r, r.lastTurnPrompts
	r.PID = func(sid string) int { return r.agent.ProcessID(sid) }
	return r
}

// lastTurnPrompts lists the prompts of the fake model's last turn request.
func (r *rig) lastTurnPrompts() []string {
	reqs := r.fake.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if reqs[i].Kind == "" || reqs[i].Kind == "turn" {
			return reqs[i].Prompts()
		}
	}
	return nil
}

// fork returns a rig on the same host and fake model with a session and
// client of its own (its own app-server), for subtest t.
func (r *rig) fork(t *testing.T) *rig {
	t.Helper()
	f := *r
	f.Rig = r.Fork(t)
	return &f
}
