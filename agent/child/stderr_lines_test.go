package child

import (
	"slices"
	"strings"
	"testing"
)

func TestUsefulStderrPicksTheLinesThatSayWhy(t *testing.T) {
	// What Codex 0.169.0 writes when CODEX_HOME names no directory.
	codexHome := `WARNING: proceeding, even though we could not create PATH aliases: CODEX_HOME points to "/tmp/x", but that path does not exist
Error: CODEX_HOME points to "/tmp/x", but that path does not exist

Stack backtrace:
   0: <unknown>
   1: <unknown>
   8: <unknown>
`
	cases := []struct {
		name string
		tail string
		cut  bool
		want []string
	}{
		{"empty", "", false, nil},
		{"only blank lines", "\n  \n\t\n", false, nil},
		{"codex without its home", codexHome, false, []string{`Error: CODEX_HOME points to "/tmp/x", but that path does not exist`}},
		{"no error word: the last line", "starting\nlistening on 4096\nshutting down\n", false, []string{"shutting down"}},
		{"an error before chatter", "fatal: bad config\nbye\n", false, []string{"fatal: bad config"}},
		{"rust panic with its hint", "thread 'main' panicked at src/main.rs:3:5:\nboom\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n", false,
			[]string{"thread 'main' panicked at src/main.rs:3:5:"}},
		{"anyhow causes", "Error: could not start\n\nCaused by:\n    0: reading config.toml\n    1: permission denied\n\nStack backtrace:\n   0: codex::main\n             at src/main.rs:9\n", false,
			[]string{"Error: could not start", "reading config.toml", "permission denied"}},
		{"go panic", "panic: runtime error: index out of range\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/main.go:5 +0x1d\nexit status 2\n", false,
			[]string{"panic: runtime error: index out of range"}},
		{"node stack", "TypeError: x is not a function\n    at Object.<anonymous> (/a/b.js:1:1)\n    at node:internal/main:1:1\n", false,
			[]string{"TypeError: x is not a function"}},
		{"python traceback", "Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\n    boom()\nNameError: name 'boom' is not defined\n", false,
			[]string{"NameError: name 'boom' is not defined"}},
		{"log level ERROR", "2026-01-02T03:04:05Z  INFO codex: started\n2026-01-02T03:04:06Z ERROR codex: login required\n", false,
			[]string{"2026-01-02T03:04:06Z ERROR codex: login required"}},
		{"escapes stripped", "\x1b[31mError:\x1b[0m disk full\x07\n", false, []string{"Error: disk full"}},
		{"a redrawn progress line", "downloading 10%\rdownloading 100%\rdone\n", false, []string{"done"}},
		{"repeated errors once, the last three", "error: a\nerror: a\nerror: b\nerror: c\nerror: d\n", false, []string{"error: b", "error: c", "error: d"}},
		{"a cut tail drops its fragment", "ror: half a line\nlast words\n", true, []string{"last words"}},
		{"a whole tail keeps its first line", "error: whole\n", false, []string{"error: whole"}},
		{"only frames", "   0: <unknown>\n   1: <unknown>\n", false, nil},
		{"the word errors is not an error", "0 errors, 2 warnings\n", false, []string{"0 errors, 2 warnings"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := UsefulStderr(c.tail, c.cut); !slices.Equal(got, c.want) {
				t.Errorf("UsefulStderr = %q, want %q", got, c.want)
			}
		})
	}
}

func TestUsefulStderrCutsLongLines(t *testing.T) {
	got := UsefulStderr("Error: "+strings.Repeat("é", 400), false)
	if len(got) != 1 || len(got[0]) > 300+len("…") || !strings.HasSuffix(got[0], "…") {
		t.Errorf("a long line is not cut: %q", got)
	}
}

func TestTailBufferSaysWhenItDroppedBytes(t *testing.T) {
	b := &tailBuffer{max: 8}
	b.add([]byte("1234"))
	if s, cut := b.Tail(); s != "1234" || cut {
		t.Errorf("Tail = %q, %v", s, cut)
	}
	b.add([]byte("56789"))
	if s, cut := b.Tail(); s != "23456789" || !cut {
		t.Errorf("Tail = %q, %v", s, cut)
	}
}
