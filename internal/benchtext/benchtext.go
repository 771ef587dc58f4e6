// Package benchtext finds the benchmarks' long answer: shared/bench/longmd.md
// (200,555 bytes of markdown), kept beside the repository, not in it.
package benchtext

import (
	"os"
	"path/filepath"
	"testing"
)

// FileEnv names the variable that points at the answer's file directly.
const FileEnv = "LOOKOUT_BENCH_FILE"

// Path is the answer's file: $LOOKOUT_BENCH_FILE, else shared/bench/longmd.md
// in the working directory, one of its parents or a sibling of one; "" when
// there is none.
func Path() string {
	if f := os.Getenv(FileEnv); f != "" {
		return f
	}
	wd, _ := os.Getwd()
	for d := wd; d != filepath.Dir(d); d = filepath.Dir(d) {
		for _, p := range []string{filepath.Join(d, "shared", "bench", "longmd.md"), filepath.Join(d, "..", "shared", "bench", "longmd.md")} {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	return ""
}

// Find is the answer's text, or "" when Path finds no file.
func Find() string {
	p := Path()
	if p == "" {
		return ""
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	return string(b)
}

// File is Path, skipping tb when there is no file.
func File(tb testing.TB) string {
	tb.Helper()
	p := Path()
	if p == "" {
		tb.Skip("shared/bench/longmd.md not found beside the repository (set " + FileEnv + ")")
	}
	return p
}

// Longmd is the answer's text, skipping tb when there is no file.
func Longmd(tb testing.TB) string {
	tb.Helper()
	s := Find()
	if s == "" {
		tb.Skip("shared/bench/longmd.md not found beside the repository (set " + FileEnv + ")")
	}
	return s
}
