package bridge

import (
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// ContextLost tells the user that the agent could not resume its own
// session (another CODEX_HOME or CLAUDE_CONFIG_DIR, a deleted transcript)
// and that this turn starts without the earlier context: a warning for the
// status bar now, and an error item in the transcript, which outlives the
// warning, is journaled and exported. code names the cause
// ("threadNotResumed", "sessionNotResumed").
func ContextLost(t *host.Turn, code, message string) {
	_ = t.Warning(model.Warning{RequestKind: "agent", Code: code, Message: message})
	_, _ = t.RecordItem(model.KindError, model.StatusCompleted, map[string]any{"message": message, "code": code})
}
