package claude_test

import (
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/claude"
	"github.com/lookout-sh/lookout/agent/claude/claudetest"
	"github.com/lookout-sh/lookout/host"
)

// rig is a real Lookout host whose agent is the real Claude Code, talking
// to a fake model on loopback, with a client subscribed to one session
// (see agenttest.Rig).
type rig struct {
	*agenttest.Rig
	bin   string
	fake  *claudetest.FakeModel
	env   []string
	work  string
	agent *claude.Agent // the bridge of the host running now
}

type rigOptions struct {
	fake claudetest.FakeOptions
	home claudetest.HomeOptions
	bin  string   // default claudetest.Binary
	env  []string // added to Claude Code's environment
}

func newRig(t *testing.T, o rigOptions) *rig {
	t.Helper()
	bin := o.bin
	if bin == "" {
		bin = claudetest.Binary(t)
	}
	r := &rig{bin: bin, fake: claudetest.NewFakeModel(t, o.fake)}
	r.env = append(claudetest.Home(t, r.fake.URL(), o.home), o.env...)
	r.work = agenttest.Workdir(t)
	r.Rig = agenttest.NewRig(t, "claude", func() host.Agent {
		r.agent = claude.New(claude.Options{Bin: r.bin, Env: r.env, Cwd: r.work, InterruptGrace: 5 * time.Second})
		return r.agent
	})
	r.Work, r.Bridge, r.LastPrompts = r.work, r, r.lastPrompts
	r.PID = func(sid string) int { return r.agent.ProcessID(sid) }
	return r
}

// lastPrompts lists the prompts of the fake model's last request.
func (r *rig) lastPrompts() []string {
	reqs := r.fake.Requests()
	if len(reqs) == 0 {
		return nil
	}
	return reqs[len(reqs)-1].Prompts()
}
