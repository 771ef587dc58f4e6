package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

// The retry hint is never cut: a long error gives way (cut with …) at any
// width, and no banner ever says "unknown" for an error it does not have.
func TestBannerKeepsTheRetryHintAndNeverSaysUnknown(t *testing.T) {
	long := "the host refused the token: no token was sent; give one with --token-file, $LOOKOUT_TOKEN or lookout auth login, or run the client on the host's machine"
	cases := []struct {
		name string
		f    sync.Freshness
		want []string
		tail string
	}{
		{"error, long", sync.Freshness{State: sync.Error, Err: long}, []string{"✗ Sync error: the host refused the token"}, "ctrl+r to retry"},
		{"reconnecting, long", sync.Freshness{State: sync.Reconnecting, NextAttempt: fixedNow.Add(3 * time.Second), Attempt: 4, Err: long},
			[]string{"⟳ Reconnecting to host · next attempt in 3s (attempt 4)"}, "ctrl+r retries now"},
		{"reconnecting, trying now", sync.Freshness{State: sync.Reconnecting, Attempt: 4, Err: "connection refused"},
			[]string{"⟳ Reconnecting to host · trying now (attempt 4) · conn"}, ""},
		{"retrying", sync.Freshness{State: sync.Retrying, Err: long}, []string{"↻ Sync error: the host refused"}, "retrying…"},
		{"retrying without an error", sync.Freshness{State: sync.Retrying}, []string{"↻ Retrying…"}, ""},
		{"error without a message", sync.Freshness{State: sync.Error}, []string{"✗ Sync error"}, "ctrl+r to retry"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, w := range []int{120, 80, 60} {
				f := newFake(t)
				longSession(f, 1, 3)
				f.edit(func(sn *sync.Picture, _ *model.State) { sn.Freshness = c.f })
				d := newDriver(t, w, 20, Options{Source: f})
				line := strings.TrimRight(d.lines()[0], " ")
				for _, want := range c.want {
					if !strings.Contains(line, want) {
						t.Errorf("%s at %d: banner %q lacks %q", c.name, w, line, want)
					}
				}
				if c.tail != "" && (w >= 80 || c.f.State != sync.Reconnecting) && !strings.HasSuffix(line, c.tail) {
					t.Errorf("%s at %d: banner %q does not end with the hint %q", c.name, w, line, c.tail)
				}
				if strings.Contains(line, "unknown") {
					t.Errorf("%s at %d: banner %q says unknown", c.name, w, line)
				}
				if ansi.StringWidth(d.lines()[0]) > w {
					t.Errorf("%s at %d: banner wider than the screen", c.name, w)
				}
			}
		})
	}
}

func TestBannerTextFit(t *testing.T) {
	cases := []struct {
		b     bannerText
		width int
		want  string
	}{
		{bannerText{"✗ Sync error", ": ", "refused", "ctrl+r to retry"}, 60, " ✗ Sync error: refused · ctrl+r to retry"},
		{bannerText{"✗ Sync error", ": ", "", "ctrl+r to retry"}, 60, " ✗ Sync error · ctrl+r to retry"},
		{bannerText{"✗ Sync error", ": ", "a very long reason indeed", "ctrl+r to retry"}, 40, " ✗ Sync error: a very… · ctrl+r to retry"},
		{bannerText{"⟳ Reconnecting", " · ", "a very long reason indeed", ""}, 30, " ⟳ Reconnecting · a very long…"},
		// Too narrow: the detail gives way first, then the hint, and the
		// head (the state and its countdown) is cut last.
		{bannerText{"✗ Sync error", ": ", "reason", "ctrl+r to retry"}, 31, " ✗ Sync error · ctrl+r to retry"},
		{bannerText{"✗ Sync error", ": ", "reason", "ctrl+r to retry"}, 20, " ✗ Sync error"},
		{bannerText{"✗ Sync error", ": ", "reason", "ctrl+r to retry"}, 8, " ✗ Sync…"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint("width ", c.width), func(t *testing.T) {
			if got := c.b.fit(c.width); got != c.want {
				t.Errorf("%+v at %d = %q, want %q", c.b, c.width, got, c.want)
			}
		})
	}
}
