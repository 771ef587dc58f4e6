// Package themes maps Lookout's semantic colour slots to lipgloss styles.
//
// A Theme is a plain value: there is no global theme. The TUI picks one
// (Dark, Light, or ByName with "auto" once it knows the terminal's
// background) and hands it to the renderer and its own components.
package themes

import (
	"fmt"
	"image/color"
	"strings"

	"charm.land/glamour/v2/ansi"
	"charm.land/lipgloss/v2"
)

// Theme maps semantic colour slots to lipgloss styles. Every slot is a
// ready-to-use style (foreground, and where it matters background and
// attributes); callers render with slot.Render(s) and never build colours
// of their own. A Theme is a value: copying it is cheap and safe.
type Theme struct {
	// Name is "dark" or "light" (the name ByName accepts for it).
	Name string
	// Dark reports whether the theme is meant for a dark background.
	Dark bool

	Text       lipgloss.Style // ordinary body text
	Muted      lipgloss.Style // secondary text: metadata, hints
	Faint      lipgloss.Style // tertiary text: pending prompts, rules
	Accent     lipgloss.Style // emphasis: links, spinners, markers
	UserLabel  lipgloss.Style // the "You" label of user messages
	UserText   lipgloss.Style // the text of user messages
	AgentLabel lipgloss.Style // the label of agent messages
	Reasoning  lipgloss.Style // reasoning summaries
	ToolName   lipgloss.Style // a tool card's tool name
	ToolBorder lipgloss.Style // a tool card's frame
	Success    lipgloss.Style // success marks (exit 0, completed)
	Error      lipgloss.Style // failures, error callouts
	Warning    lipgloss.Style // waiting for approval, truncation notes, host loss
	Pending    lipgloss.Style // optimistic (not yet confirmed) prompts
	Code       lipgloss.Style // inline code and tool input/output text
	Divider    lipgloss.Style // horizontal rules (context compaction)
	Selected   lipgloss.Style // the selection marker of the selected row

	BannerInfo  lipgloss.Style // freshness banner: updating, informational
	BannerWarn  lipgloss.Style // freshness banner: reconnecting
	BannerError lipgloss.Style // freshness banner: sync error
	StatusBar   lipgloss.Style // the status bar's base (background) style
	StatusKey   lipgloss.Style // key names inside the status bar and approval bar
	Help        lipgloss.Style // the help overlay's text

	// Markdown is the glamour style configuration for agent messages, made
	// for embedding: no document margin and no leading or trailing blank
	// line. Treat it as read-only; it shares pointers with its source.
	Markdown ansi.StyleConfig
}

// palette is the handful of colours a theme is built from.
type palette struct {
	text, muted, faint, accent, user, agent, tool, border color.Color
	success, errc, warn, code, selBg                      color.Color
	bannerInfoFg, bannerInfoBg                            color.Color
	bannerWarnFg, bannerWarnBg                            color.Color
	bannerErrFg, bannerErrBg                              color.Color
	barFg, barBg                                          color.Color
}

func build(name string, dark bool, p palette, md ansi.StyleConfig) Theme {
	s := lipgloss.NewStyle
	return Theme{
		Name: name, Dark: dark,
		Text:       s().Foreground(p.text),
		Muted:      s().Foreground(p.muted),
		Faint:      s().Foreground(p.faint),
		Accent:     s().Foreground(p.accent),
		UserLabel:  s().Foreground(p.user).Bold(true),
		UserText:   s().Foreground(p.text),
		AgentLabel: s().Foreground(p.agent).Bold(true),
		Reasoning:  s().Foreground(p.muted).Italic(true),
		ToolName:   s().Foreground(p.tool).Bold(true),
		ToolBorder: s().Foreground(p.border),
		Success:    s().Foreground(p.success),
		Error:      s().Foreground(p.errc),
		Warning:    s().Foreground(p.warn),
		Pending:    s().Foreground(p.faint).Italic(true),
		Code:       s().Foreground(p.code),
		Divider:    s().Foreground(p.border),
		Selected:   s().Foreground(p.accent).Background(p.selBg).Bold(true),

		BannerInfo:  s().Foreground(p.bannerInfoFg).Background(p.bannerInfoBg).Bold(true),
		BannerWarn:  s().Foreground(p.bannerWarnFg).Background(p.bannerWarnBg).Bold(true),
		BannerError: s().Foreground(p.bannerErrFg).Background(p.bannerErrBg).Bold(true),
		StatusBar:   s().Foreground(p.barFg).Background(p.barBg),
		StatusKey:   s().Foreground(p.accent).Background(p.barBg).Bold(true),
		Help:        s().Foreground(p.muted),

		Markdown: md,
	}
}

// Dark returns the theme for dark terminal backgrounds.
func Dark() Theme {
	c := lipgloss.Color
	return build("dark", true, palette{
		text: c("#E4E4E7"), muted: c("#A1A1AA"), faint: c("#71717A"),
		accent: c("#7DD3FC"), user: c("#C4B5FD"), agent: c("#6EE7B7"),
		tool: c("#FCD34D"), border: c("#52525B"),
		success: c("#4ADE80"), errc: c("#F87171"), warn: c("#FBBF24"),
		code: c("#F0ABFC"), selBg: c("#27272A"),
		bannerInfoFg: c("#E0F2FE"), bannerInfoBg: c("#1E3A8A"),
		bannerWarnFg: c("#FEF3C7"), bannerWarnBg: c("#78350F"),
		bannerErrFg: c("#FEE2E2"), bannerErrBg: c("#7F1D1D"),
		barFg: c("#D4D4D8"), barBg: c("#27272A"),
	}, embedMarkdown(darkMarkdown()))
}

// Light returns the theme for light terminal backgrounds.
func Light() Theme {
	c := lipgloss.Color
	return build("light", false, palette{
		text: c("#18181B"), muted: c("#52525B"), faint: c("#A1A1AA"),
		accent: c("#0369A1"), user: c("#6D28D9"), agent: c("#047857"),
		tool: c("#B45309"), border: c("#A1A1AA"),
		success: c("#15803D"), errc: c("#B91C1C"), warn: c("#B45309"),
		code: c("#A21CAF"), selBg: c("#E4E4E7"),
		bannerInfoFg: c("#0C4A6E"), bannerInfoBg: c("#BAE6FD"),
		bannerWarnFg: c("#78350F"), bannerWarnBg: c("#FDE68A"),
		bannerErrFg: c("#7F1D1D"), bannerErrBg: c("#FECACA"),
		barFg: c("#27272A"), barBg: c("#E4E4E7"),
	}, embedMarkdown(lightMarkdown()))
}

// Names lists the names ByName accepts.
func Names() []string { return []string{"dark", "light", "auto"} }

// ByName returns the theme called name: "dark", "light", or "auto" (also
// the empty string), which picks Dark when terminalIsDark and Light
// otherwise. Names are case-insensitive; any other name is an error that
// lists the valid ones.
func ByName(name string, terminalIsDark bool) (Theme, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "dark":
		return Dark(), nil
	case "light":
		return Light(), nil
	case "auto", "":
		if terminalIsDark {
			return Dark(), nil
		}
		return Light(), nil
	}
	return Theme{}, fmt.Errorf("unknown theme %q (want one of %s)", name, strings.Join(Names(), ", "))
}
