package child

import (
	"regexp"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// maxUsefulLines bounds how many lines UsefulStderr returns.
const maxUsefulLines = 3

// Patterns of what a child writes to stderr as it dies.
var (
	// errorLine is a line that says what went wrong: "Error: …",
	// "fatal: …", "panic: …", "thread 'main' panicked at …", or a log line
	// at level ERROR ("2026-01-02T03:04:05Z ERROR codex: …", "[error] …").
	errorLine = regexp.MustCompile(`(?i)^(error|fatal|panic)\b|panicked at|(^|[\s\[])(error|fatal|panic)(\]|:|\s)`)
	// backtraceHeader starts a run of stack frames ("Stack backtrace:",
	// "backtrace:", Go's "goroutine 1 [running]:", Python's "Traceback
	// (most recent call last):").
	backtraceHeader = regexp.MustCompile(`(?i)^\s*((stack )?backtrace:?|goroutine \d+ \[.*\]:?|traceback \(most recent call last\):?)\s*$`)
	// frameLine is a stack frame wherever it appears: "  8: <unknown>",
	// "    at Object.<anonymous> (file.js:1:1)", "\t/src/x.go:12 +0x1d".
	frameLine = regexp.MustCompile(`^\s*(\d+:\s*<unknown>|at\s.*|\S+\.(go|rs|js|ts|py):\d+.*|\.\.\. \d+ more)\s*$`)
	// backtraceHint is a runtime's advice to turn backtraces on.
	backtraceHint = regexp.MustCompile(`(?i)^note: run with .?RUST_BACKTRACE`)
	// causesHeader starts a list of causes (Rust's anyhow: "Caused by:"
	// then indented "    0: …" lines), which say what went wrong.
	causesHeader = regexp.MustCompile(`(?i)^\s*caused by:\s*$`)
	// causeNumber is the "0: " a listed cause starts with.
	causeNumber = regexp.MustCompile(`^\d+:\s*`)
)

// UsefulStderr picks from the end of a child's stderr the lines that say
// why it failed, in the order written, at most three, each cut to 300
// bytes: the lines that report an error (and the causes listed under
// one), else the last line that is not noise. Terminal escapes, blank
// lines, stack backtraces and runtime hints are noise and never chosen.
// The first line of tail is taken for a fragment when cut is true (the
// tail was cut from a longer stderr). A pure function of its input.
func UsefulStderr(tail string, cut bool) []string {
	lines := strings.Split(tail, "\n")
	if cut && len(lines) > 0 {
		lines = lines[1:]
	}
	var errs, others []string
	inBacktrace, inCauses := false, false
	for _, raw := range lines {
		line := cleanStderrLine(raw)
		indented := line != strings.TrimLeft(line, " \t")
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			continue
		case backtraceHeader.MatchString(line):
			inBacktrace, inCauses = true, false
			continue
		case causesHeader.MatchString(line):
			inCauses, inBacktrace = true, false
			continue
		case inBacktrace && (indented || causeNumber.MatchString(line)):
			continue
		case inCauses && indented:
			errs = appendNew(errs, causeNumber.ReplaceAllString(line, ""))
			continue
		}
		inBacktrace, inCauses = false, false
		switch {
		case frameLine.MatchString(line), backtraceHint.MatchString(line):
		case errorLine.MatchString(line):
			errs = appendNew(errs, line)
		default:
			others = append(others, line)
		}
	}
	chosen := errs
	if len(chosen) == 0 && len(others) > 0 {
		chosen = others[len(others)-1:]
	}
	if len(chosen) > maxUsefulLines {
		chosen = chosen[len(chosen)-maxUsefulLines:]
	}
	out := make([]string, len(chosen))
	for i, l := range chosen {
		out[i] = Cut(l, 300)
	}
	return out
}

// cleanStderrLine is one line as a terminal would have left it: escapes
// stripped, only what follows the last carriage return (a progress line
// redrawn), other control characters dropped.
func cleanStderrLine(s string) string {
	s = ansi.Strip(s)
	if i := strings.LastIndexByte(strings.TrimRight(s, "\r"), '\r'); i >= 0 {
		s = s[i+1:]
	}
	return strings.Map(func(r rune) rune {
		if r == '\t' {
			return ' '
		}
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

// appendNew appends s unless list holds it already.
func appendNew(list []string, s string) []string {
	for _, have := range list {
		if have == s {
			return list
		}
	}
	return append(list, s)
}
