package cli

import (
	"strings"
	"testing"
)

// Usage errors exit 2 from every command: unknown flags and commands,
// extra arguments, malformed URLs, and a `send` whose only argument is a
// host URL (the prompt was forgotten): that URL is never sent as a prompt.
func TestUsageErrorsExit2Everywhere(t *testing.T) {
	freshXDG(t)
	h := cliHost(t)
	sid := h.DefaultSessionID()
	tok := "--token=" + h.Token()
	addr := strings.TrimPrefix(strings.TrimSuffix(h.URL(), "/v1/ws"), "ws://")
	var cases [][]string
	urls := []string{h.URL(), addr, "http://" + addr, "localhost:7777", "[::1]:7777", "wss://example.com/v1/ws"}
	for _, u := range urls {
		// No URL before it: the host running on --data would get the URL
		// as its prompt.
		cases = append(cases, []string{"send", "--data", h.DataDir(), "--session", sid, u})
	}
	for _, bad := range []string{"ftp://x:1", "ws://", "ws://127.0.0.1:notaport", "ws://127.0.0.1:99999", "http://[::1"} {
		cases = append(cases,
			[]string{"sessions", bad}, []string{"watch", bad, "--until-idle"}, []string{"export", bad},
			[]string{"send", bad, "hi"}, []string{"send", "--new", bad, "hi"},
			[]string{"attach", bad}, []string{"attach", bad, "--session", "s"},
			[]string{"auth", "login", bad}, []string{"auth", "logout", bad})
	}
	cases = append(cases,
		[]string{"--nope"}, []string{"bogus"}, []string{"attach", "--nope"}, []string{"attach", "a", "b"},
		[]string{"serve", "--nope"}, []string{"serve", "extra"}, []string{"serve", "--addr", "nope"},
		[]string{"auth", "bogus"}, []string{"auth", "status", "extra"}, []string{"sessions", "--nope"},
		[]string{"send"}, []string{"send", h.URL(), tok, "--on-approval", "maybe", "x"},
		[]string{"attach", "--theme", "purple", h.URL()}, []string{"watch", "--deltas=maybe", h.URL()})
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			if _, errText, code := runCLIErr(t, args...); code != exitUsage {
				t.Fatalf("exit %d, want %d (usage); stderr %q", code, exitUsage, errText)
			}
		})
	}
	out, code := runCLI(t, "export", h.URL(), tok, "--session", sid, "--format", "markdown")
	if code != 0 {
		t.Fatalf("export: exit %d", code)
	}
	for _, u := range urls {
		if strings.Contains(out, "## User\n\n"+u+"\n") {
			t.Fatalf("%s was sent as a prompt:\n%s", u, out)
		}
	}
}

func TestLooksLikeHostURL(t *testing.T) {
	for s, want := range map[string]bool{
		"ws://127.0.0.1:7777/v1/ws": true, "WSS://example.com": true, "http://h:1": true, "https://example.com/x": true,
		"127.0.0.1:7777": true, "localhost:7777": true, "localhost:7777/v1/ws": true, "[::1]:7777": true,
		"example.com:443": true, "build-box:7777": true, " 127.0.0.1:7777 ": true,
		"Fix the bug": false, "fix: the bug": false, "step:2": false, "note:x1": false, "why?": false,
		"127.0.0.1": false, "see http://example.com for details": false, "ws:": false, "a:99999": false, "": false,
		"C:\\path": false, "https:": false,
	} {
		if got := looksLikeHostURL(s); got != want {
			t.Errorf("looksLikeHostURL(%q) = %v, want %v", s, got, want)
		}
	}
}
