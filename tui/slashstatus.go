package tui

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/keymap"
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/render"
	"github.com/lookout-sh/lookout/termtext"
	"github.com/lookout-sh/lookout/themes"
)

// statusFacts are /status's lines: what the session's state says, one
// "name  value" pair a line, known names first in a fixed order, then any
// other string or number value the host set, by name. Every value comes
// from the host and passes termtext.Line.
func statusFacts(v *model.View, host string) [][2]string {
	var out [][2]string
	add := func(name, value string) {
		if value = termtext.Line(value); value != "" {
			out = append(out, [2]string{name, value})
		}
	}
	if v == nil {
		add("host", host)
		return out
	}
	add("title", v.Title())
	add("session", v.SessionID)
	add("host", host)
	add("agent", v.StringValue("agent"))
	add("agent session", v.StringValue("agentSessionId"))
	add("model", v.StringValue("model"))
	add("directory", v.StringValue("cwd"))
	add("usage", usageFacts(v.Values["usage"]))
	add("cost", render.CostText(v.Values["costUsd"]))
	if cmds, ok := agentCommands(v); ok {
		add("agent commands", fmt.Sprint(len(cmds)))
	}
	shown := map[string]bool{"title": true, "agent": true, "agentSessionId": true, "model": true,
		"cwd": true, "usage": true, "costUsd": true, "commands": true, "status": true}
	var rest []string
	for k := range v.Values {
		if !shown[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		if s, ok := scalarText(v.Values[k]); ok {
			add(k, s)
		}
	}
	return out
}

// usageFacts is the usage value in words: "12,345 tokens in total (input
// 10,000, 2,000 of them cached; output 2,345) · context 31,000 of
// 200,000". "" when it holds nothing readable.
func usageFacts(raw json.RawMessage) string {
	var u struct {
		Input, Cached, Output, Reasoning, Total, Context, Window *float64
	}
	var wire struct {
		InputTokens           *float64 `json:"inputTokens"`
		CachedInputTokens     *float64 `json:"cachedInputTokens"`
		OutputTokens          *float64 `json:"outputTokens"`
		ReasoningOutputTokens *float64 `json:"reasoningOutputTokens"`
		TotalTokens           *float64 `json:"totalTokens"`
		ContextTokens         *float64 `json:"contextTokens"`
		ContextWindow         *float64 `json:"contextWindow"`
	}
	if raw == nil || json.Unmarshal(raw, &wire) != nil {
		return ""
	}
	u.Input, u.Cached, u.Output, u.Reasoning = wire.InputTokens, wire.CachedInputTokens, wire.OutputTokens, wire.ReasoningOutputTokens
	u.Total, u.Context, u.Window = wire.TotalTokens, wire.ContextTokens, wire.ContextWindow
	n := func(f *float64) string { return groupThousands(int64(*f)) }
	var parts []string
	if u.Total != nil {
		parts = append(parts, n(u.Total)+" tokens in total")
	}
	var io []string
	if u.Input != nil {
		in := "input " + n(u.Input)
		if u.Cached != nil {
			in += " (" + n(u.Cached) + " cached)"
		}
		io = append(io, in)
	}
	if u.Output != nil {
		io = append(io, "output "+n(u.Output))
	}
	if u.Reasoning != nil {
		io = append(io, "reasoning "+n(u.Reasoning))
	}
	if len(io) > 0 {
		parts = append(parts, strings.Join(io, ", "))
	}
	switch {
	case u.Context != nil && u.Window != nil:
		parts = append(parts, "context "+n(u.Context)+" of "+n(u.Window))
	case u.Window != nil:
		parts = append(parts, "context window "+n(u.Window))
	}
	return strings.Join(parts, " · ")
}

// groupThousands writes n with commas between thousands.
func groupThousands(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// scalarText is a JSON string, number or boolean as text.
func scalarText(raw json.RawMessage) (string, bool) {
	var x any
	if json.Unmarshal(raw, &x) != nil {
		return "", false
	}
	switch x := x.(type) {
	case string:
		return x, true
	case float64, bool:
		return fmt.Sprint(x), true
	}
	return "", false
}

// statusTitle is the /status screen's first line.
func statusTitle(t themes.Theme, km keymap.KeyMap) string {
	return " " + t.AgentLabel.Render("Session status") + t.Muted.Render(" · "+km.Help.Close.Help().Key+" closes")
}

// statusBody lays statusFacts out: names aligned, values wrapped under
// themselves.
func statusBody(t themes.Theme, facts [][2]string, width int) []string {
	nw := 0
	for _, f := range facts {
		nw = max(nw, ansi.StringWidth(f[0]))
	}
	var out []string
	for _, f := range facts {
		head := "   " + t.StatusKey.Render(f[0]+strings.Repeat(" ", nw-ansi.StringWidth(f[0]))) + "  "
		for i, l := range strings.Split(ansi.Wrap(f[1], max(12, width-5-nw), " "), "\n") {
			if i > 0 {
				head = blank(5 + nw)
			}
			out = append(out, head+t.Help.Render(l))
		}
	}
	if len(facts) == 0 {
		out = append(out, "   "+t.Muted.Render("the session's state says nothing yet"))
	}
	return out
}
