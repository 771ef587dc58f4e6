package codex_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/codex"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// A CODEX_HOME that does not exist stops the app-server before it
// answers: the failed turn's transcript carries Codex's own error line,
// not the last frame of the backtrace printed after it.
func TestAMissingCodexHomeFailsTheTurnWithCodexsWords(t *testing.T) {
	bin := codextest.Binary(t)
	fake := codextest.NewFakeModel(t, codextest.FakeOptions{})
	env := codextest.Home(t, fake.URL(), codextest.HomeOptions{})
	missing := filepath.Join(t.TempDir(), "no-such-home")
	work := agenttest.Workdir(t)
	r := agenttest.NewRig(t, "codex", func() host.Agent {
		return codex.New(codex.Options{Bin: bin, Env: env, Home: missing, Cwd: work, InterruptGrace: 5 * time.Second})
	})
	done, _ := r.Turn("say: hello")
	if done.Status != model.StatusFailed || done.TurnError == nil {
		t.Fatalf("turn ended %s %+v, want failed", done.Status, done.TurnError)
	}
	e := r.One(model.KindError, done.TurnID)
	msg := e.ErrorMessage()
	if !strings.Contains(msg, "CODEX_HOME points to") || !strings.Contains(msg, missing) {
		t.Errorf("the error item says %q, want Codex's CODEX_HOME line", msg)
	}
	if strings.Contains(msg, "<unknown>") {
		t.Errorf("the error item quotes the backtrace: %q", msg)
	}
	t.Logf("error item: %s", msg)
	if e.String("code") != "agentStartFailed" {
		t.Errorf("the error item's code is %q", e.String("code"))
	}
}
