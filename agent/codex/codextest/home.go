package codextest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// HomeOptions shapes the config.toml Home writes. The zero value gives
// the defaults below.
type HomeOptions struct {
	// Sandbox is sandbox_mode: "workspace-write" (default) runs commands
	// and patches inside the working directory without asking;
	// "read-only" makes Codex ask item/fileChange/requestApproval for
	// patches; "danger-full-access" never sandboxes.
	Sandbox string
	// Approval is approval_policy: "on-request" (default) or "never"
	// ("untrusted" is refused by Codex 0.169.0).
	Approval string
	// RequestRetries is the provider's request_max_retries: silent retries
	// of a failed HTTP request (no notification). Default 0.
	RequestRetries int
	// StreamRetries is stream_max_retries: each one is announced with an
	// `error` notification {willRetry:true, message:"Reconnecting... n/N"}.
	// Default 0. The "retry" and "disconnect" scenarios need it >= 1.
	StreamRetries int
	// StreamIdleTimeout is stream_idle_timeout_ms (default 10 s).
	StreamIdleTimeout time.Duration
	// ExtraConfig is TOML appended to config.toml as is.
	ExtraConfig string
}

// Home makes a temporary CODEX_HOME holding an offline config.toml whose
// provider "fake" points at modelURL (FakeModel.URL, ending in "/v1"), and
// a temporary HOME. It returns the whole environment for a codex child
// process: PATH (and TMPDIR, LANG when set) from this process, CODEX_HOME,
// HOME, FAKE_CODEX_API_KEY=dummy, RUST_LOG=error and NO_PROXY=127.0.0.1;
// nothing else, so no OPENAI_API_KEY, no proxy and no CODEX_* variable
// leaks in. Both directories are removed when the test ends. Use
// agenttest.EnvValue to read CODEX_HOME back (rollout files live in its sessions/ folder).
func Home(t testing.TB, modelURL string, opts HomeOptions) []string {
	t.Helper()
	codexHome := agenttest.TempDir(t)
	home := agenttest.TempDir(t)
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(ConfigTOML(modelURL, opts)), 0o600); err != nil {
		t.Fatalf("codextest: write config.toml: %v", err)
	}
	env := []string{
		"CODEX_HOME=" + codexHome,
		"HOME=" + home,
		"FAKE_CODEX_API_KEY=dummy",
		"RUST_LOG=error",
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

// ConfigTOML is the config.toml Home writes for modelURL and opts.
func ConfigTOML(modelURL string, opts HomeOptions) string {
	if opts.Sandbox == "" {
		opts.Sandbox = "workspace-write"
	}
	if opts.Approval == "" {
		opts.Approval = "on-request"
	}
	if opts.StreamIdleTimeout <= 0 {
		opts.StreamIdleTimeout = 10 * time.Second
	}
	var b strings.Builder
	fmt.Fprintf(&b, `model = "fake-model"
model_provider = "fake"
approval_policy = %s
sandbox_mode = %s
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = %s
wire_api = "responses"
env_key = "FAKE_CODEX_API_KEY"
request_max_retries = %d
stream_max_retries = %d
stream_idle_timeout_ms = %d

[analytics]
enabled = false

[features]
plugins = false
remote_plugin = false
plugin_sharing = false
apps = false
tool_suggest = false
in_app_updates = false
skill_mcp_dependency_install = false
image_generation = false
`, tomlString(opts.Approval), tomlString(opts.Sandbox), tomlString(modelURL),
		opts.RequestRetries, opts.StreamRetries, opts.StreamIdleTimeout.Milliseconds())
	if opts.ExtraConfig != "" {
		b.WriteString("\n" + opts.ExtraConfig + "\n")
	}
	return b.String()
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\r", `\r`)
	return `"` + r.Replace(s) + `"`
}
