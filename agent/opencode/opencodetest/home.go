package opencodetest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// HomeOptions shapes the opencode.json Home writes. The zero value asks
// before every command and every edit.
type HomeOptions struct {
	// Permission is the config's "permission" member: tool (or permission
	// name) to "ask", "allow" or "deny". nil means {"bash": "ask", "edit":
	// "ask"}, so commands and file edits wait for an approval; an empty
	// map leaves OpenCode's defaults (allow).
	Permission map[string]string
}

// Home makes a temporary HOME holding .config/opencode/opencode.json whose
// provider "fake" (model fake/fake-model, also the small model) points at
// modelURL (FakeModel.URL, ending in "/v1"). It returns the whole
// environment for an opencode child process: PATH (and TMPDIR, LANG when
// set) from this process, HOME, OPENCODE_DISABLE_AUTOUPDATE,
// OPENCODE_DISABLE_MODELS_FETCH (without it `opencode serve` may wait
// minutes for the network), OPENCODE_DISABLE_LSP_DOWNLOAD and NO_PROXY;
// nothing else, so no provider key, proxy or XDG directory of this
// machine's user leaks in. OpenCode keeps its sessions under
// HOME/.local/share/opencode, so two servers given the same env share
// them. The directory is removed when the test ends.
func Home(t testing.TB, modelURL string, opts HomeOptions) []string {
	t.Helper()
	home := agenttest.TempDir(t)
	dir := filepath.Join(home, ".config", "opencode")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatalf("opencodetest: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "opencode.json"), Config(modelURL, opts), 0o600); err != nil {
		t.Fatalf("opencodetest: write opencode.json: %v", err)
	}
	env := []string{
		"HOME=" + home,
		"OPENCODE_DISABLE_AUTOUPDATE=1",
		"OPENCODE_DISABLE_MODELS_FETCH=1",
		"OPENCODE_DISABLE_LSP_DOWNLOAD=1",
		"NO_PROXY=127.0.0.1",
		"no_proxy=127.0.0.1",
	}
	for _, k := range []string{"PATH", "TMPDIR", "LANG"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// Config is the opencode.json Home writes for modelURL and opts.
func Config(modelURL string, opts HomeOptions) []byte {
	perm := opts.Permission
	if perm == nil {
		perm = map[string]string{"bash": "ask", "edit": "ask"}
	}
	cfg := map[string]any{
		"$schema":     "https://opencode.ai/config.json",
		"autoupdate":  false,
		"share":       "disabled",
		"model":       "fake/fake-model",
		"small_model": "fake/fake-model",
		"provider": map[string]any{
			"fake": map[string]any{
				"npm":     "@ai-sdk/openai-compatible",
				"name":    "Fake",
				"options": map[string]any{"baseURL": modelURL, "apiKey": "sk-fake"},
				"models": map[string]any{"fake-model": map[string]any{
					"name":  "Fake Model",
					"limit": map[string]any{"context": ContextWindow, "output": 4096},
				}},
			},
		},
	}
	if len(perm) > 0 {
		cfg["permission"] = perm
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		panic(err) // our own map
	}
	return b
}

// ContextWindow is the fake model's context limit in the config.
const ContextWindow = 100000

// GitWorkdir is agenttest.Workdir made a git repository with one empty commit:
// OpenCode then tracks the files a turn changes in snapshots and reports
// them as "patch" parts. It fails t without git.
func GitWorkdir(t testing.TB) string {
	t.Helper()
	dir := agenttest.Workdir(t)
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=opencodetest", "-c", "user.email=opencodetest@localhost", "commit", "-q", "--allow-empty", "-m", "start"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("opencodetest: git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}
