package claudetest

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// HomeOptions shape the environment Home returns. The zero value gives the
// defaults below.
type HomeOptions struct {
	// MaxRetries is CLAUDE_CODE_MAX_RETRIES: how often Claude Code retries
	// a failed model request (a 5xx, 429 or 529), announcing each retry
	// with a system/api_retry message. Default 1, so "retry" succeeds on
	// the second attempt and "http 500" fails after about half a second;
	// -1 leaves Claude Code's own default (10, with backoff up to minutes).
	MaxRetries int
	// Settings, when not empty, is written to HOME/.claude/settings.json
	// (the user's own Claude Code settings).
	Settings string
	// Extra are more KEY=value entries, appended last.
	Extra []string
}

// Home makes a temporary HOME (Claude Code keeps its configuration, login
// state and session transcripts in HOME/.claude and HOME/.claude.json) and
// a temporary TMPDIR, and returns the whole environment for a claude child
// process pointed at modelURL (FakeModel.URL): PATH (and LANG when set)
// from this process, HOME, TMPDIR, ANTHROPIC_BASE_URL, a fake
// ANTHROPIC_API_KEY, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC,
// DISABLE_TELEMETRY, DISABLE_AUTOUPDATER, DISABLE_ERROR_REPORTING,
// CLAUDE_CODE_MAX_RETRIES and NO_PROXY=127.0.0.1; nothing else, so no
// real credential, proxy or CLAUDE_* variable leaks in. Both directories
// are removed when the test ends. Use agenttest.EnvValue to read HOME back.
func Home(t testing.TB, modelURL string, opts HomeOptions) []string {
	t.Helper()
	home := agenttest.TempDir(t)
	tmp := agenttest.TempDir(t)
	if opts.Settings != "" {
		dir := filepath.Join(home, ".claude")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatalf("claudetest: %v", err)
		}
		if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(opts.Settings), 0o600); err != nil {
			t.Fatalf("claudetest: write settings.json: %v", err)
		}
	}
	env := []string{
		"HOME=" + home,
		"TMPDIR=" + tmp,
		"ANTHROPIC_BASE_URL=" + modelURL,
		"ANTHROPIC_API_KEY=" + APIKey,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_ERROR_REPORTING=1",
		"NO_PROXY=127.0.0.1",
		"no_proxy=127.0.0.1",
	}
	switch {
	case opts.MaxRetries == 0:
		env = append(env, "CLAUDE_CODE_MAX_RETRIES=1")
	case opts.MaxRetries > 0:
		env = append(env, "CLAUDE_CODE_MAX_RETRIES="+strconv.Itoa(opts.MaxRetries))
	}
	for _, k := range []string{"PATH", "LANG"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return append(env, opts.Extra...)
}

// APIKey is the Anthropic API key Home gives Claude Code; the fake model
// accepts any key.
const APIKey = "sk-ant-fake"
