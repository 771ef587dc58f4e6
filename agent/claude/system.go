package claude

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lookout-sh/lookout/model"
)

// system folds Claude Code's system messages of a turn: compaction,
// retries, commands started in the background.
func (ts *turnState) system(m *message) error {
	switch m.Subtype {
	case "status":
		var p struct {
			Status        *string `json:"status"`
			CompactResult string  `json:"compact_result"`
			CompactError  string  `json:"compact_error"`
		}
		if err := json.Unmarshal(m.Raw, &p); err != nil {
			return err
		}
		if p.Status != nil && *p.Status == "compacting" && ts.compaction == "" {
			id, err := ts.t.StartItem(model.KindContextCompaction, model.StatusInProgress, nil)
			if err != nil {
				return err
			}
			ts.compaction = id
		}
		if p.CompactResult != "" && p.CompactResult != "success" && ts.compaction != "" {
			id := ts.compaction
			ts.compaction = ""
			msg := p.CompactError
			if msg == "" {
				msg = "the compaction " + p.CompactResult
			}
			return ts.t.CompleteItem(id, model.StatusFailed, map[string]any{"error": msg})
		}
	case "compact_boundary":
		if id := ts.compaction; id != "" {
			ts.compaction = ""
			return ts.t.CompleteItem(id, model.StatusCompleted, nil)
		}
		_, err := ts.t.RecordItem(model.KindContextCompaction, model.StatusCompleted, nil)
		return err
	case "api_retry":
		var p struct {
			Attempt      int     `json:"attempt"`
			MaxRetries   int     `json:"max_retries"`
			RetryDelayMs float64 `json:"retry_delay_ms"`
			ErrorStatus  *int    `json:"error_status"`
			Error        string  `json:"error"`
		}
		if err := json.Unmarshal(m.Raw, &p); err != nil {
			return err
		}
		// The failed attempt's streamed blocks are abandoned: end them
		// stopped, so they never read as an answer.
		ts.stopStreamedLocked()
		status := 0
		what := p.Error
		if p.ErrorStatus != nil {
			status = *p.ErrorStatus
			what = fmt.Sprintf("HTTP %d %s", status, p.Error)
		}
		return ts.t.Warning(model.Warning{RequestKind: "model", Code: errorCode(status, p.Error),
			Message:   fmt.Sprintf("The model request failed (%s); Claude Code retries in %.1f s", strings.TrimSpace(what), p.RetryDelayMs/1000),
			Retryable: true, Attempt: p.Attempt, MaxAttempts: p.MaxRetries, WillRetry: true})
	case "task_started":
		var p struct {
			ToolUseID string `json:"tool_use_id"`
		}
		if json.Unmarshal(m.Raw, &p) == nil {
			if oi := ts.tools[p.ToolUseID]; oi != nil {
				ts.toRunningLocked(oi)
			}
		}
	}
	return nil
}
