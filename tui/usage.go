package tui

import (
	"encoding/json"
	"fmt"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/render"
	"github.com/lookout-sh/lookout/termtext"
)

// sessionUsage is the status bar's note on the model and its use, from the
// session values an agent's host reports (docs/protocol.md: "model" and
// "usage", "costUsd"): "gpt-5 · 12.4k tokens · context 31% · $0.42". ""
// when the host reports none of them.
func sessionUsage(v *model.View) string {
	if v == nil {
		return ""
	}
	var parts []string
	if m := termtext.Line(v.StringValue("model")); m != "" {
		parts = append(parts, m)
	}
	var u struct {
		TotalTokens   *float64 `json:"totalTokens"`
		ContextTokens *float64 `json:"contextTokens"`
		ContextWindow *float64 `json:"contextWindow"`
	}
	if raw := v.Values["usage"]; raw != nil && json.Unmarshal(raw, &u) == nil {
		if u.TotalTokens != nil {
			parts = append(parts, compactCount(*u.TotalTokens)+" tokens")
		}
		if u.ContextTokens != nil && u.ContextWindow != nil && *u.ContextWindow > 0 {
			pct := min(100, max(0, *u.ContextTokens*100 / *u.ContextWindow))
			parts = append(parts, fmt.Sprintf("context %.0f%%", pct))
		}
	}
	if c := render.CostText(v.Values["costUsd"]); c != "" {
		parts = append(parts, c)
	}
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += " · "
		}
		out += p
	}
	return out
}

// compactCount writes a count the way status bars do: 950, 12.4k, 3.1M.
func compactCount(n float64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%.0f", n)
	case n < 10_000:
		return fmt.Sprintf("%.1fk", n/1000)
	case n < 1_000_000:
		return fmt.Sprintf("%.0fk", n/1000)
	}
	return fmt.Sprintf("%.1fM", n/1_000_000)
}
