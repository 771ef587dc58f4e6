package host

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// Notice is one reason a session needs its user, as the host tells it to
// Options.NotifyCmd and Options.NotifyURL: for users away from every
// terminal.
type Notice struct {
	SessionID string
	Title     string // the session's title ("" when it has none)
	Reason    string // "approval", "question" or "failed"
	Text      string // what needs an answer: the command, the error
	// Count is how many notices this one stands for: those held back
	// since the last one of the session (notifyEvery) and itself.
	Count int
}

// notifyEvery is how often at most one session's notices go out; the
// ones between are counted into the next, sent when the minute is over.
const notifyEvery = time.Minute

// noticeFor reads the notice an event of a session makes, if any: an
// approval that starts waiting (its summary from the fold), a question the
// agent asks, a turn that failed. Pure; summary is the approval's summary
// as the fold holds it.
func noticeFor(ev *model.Event, summary string) (Notice, bool) {
	switch ev.Method {
	case model.MethodApprovalRequested:
		return Notice{Reason: needsApproval, Text: summary}, true
	case model.MethodItemStarted:
		if ev.Item == nil || ev.Item.Kind != model.KindQuestion || ev.Item.Status != model.StatusWaitingUser {
			return Notice{}, false
		}
		q := ev.Item.QuestionOf()
		text := q.Text
		if q.Header != "" {
			text = q.Header + ": " + text
		}
		return Notice{Reason: needsQuestion, Text: text}, true
	case model.MethodTurnCompleted:
		if ev.Status != model.StatusFailed {
			return Notice{}, false
		}
		text := "the turn failed"
		if ev.TurnError != nil && ev.TurnError.Message != "" {
			text = ev.TurnError.Message
		}
		return Notice{Reason: needsFailed, Text: text}, true
	}
	return Notice{}, false
}

// noticeGate coalesces each session's notices: the first goes at once,
// later ones within notifyEvery wait for the minute's end, as one.
type noticeGate struct {
	mu    sync.Mutex
	now   func() time.Time
	after func(time.Duration, func()) // time.AfterFunc, for tests
	send  func(Notice)
	last  map[string]time.Time
	held  map[string]*Notice // the latest held notice, Count summed
}

func newNoticeGate(send func(Notice)) *noticeGate {
	return &noticeGate{now: time.Now, after: func(d time.Duration, f func()) { time.AfterFunc(d, f) }, send: send,
		last: map[string]time.Time{}, held: map[string]*Notice{}}
}

// offer sends n now, or holds it until the session's minute is over.
func (g *noticeGate) offer(n Notice) {
	g.mu.Lock()
	defer g.mu.Unlock()
	n.Count = max(n.Count, 1)
	now := g.now()
	if last, ok := g.last[n.SessionID]; ok && now.Sub(last) < notifyEvery {
		if h := g.held[n.SessionID]; h != nil {
			n.Count += h.Count
		} else {
			g.after(notifyEvery-now.Sub(last), func() { g.release(n.SessionID) })
		}
		g.held[n.SessionID] = &n
		return
	}
	g.last[n.SessionID] = now
	go g.send(n)
}

// release sends what a session's minute held.
func (g *noticeGate) release(sid string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := g.held[sid]
	if n == nil {
		return
	}
	delete(g.held, sid)
	g.last[sid] = g.now()
	go g.send(*n)
}

// clean is n as it leaves the host: every field one clean line, the text
// at most 1,000 bytes.
func (n Notice) clean() Notice {
	n.SessionID, n.Title, n.Reason = termtext.Line(n.SessionID), termtext.Line(n.Title), termtext.Line(n.Reason)
	n.Text = cutUTF8(termtext.Line(n.Text), 1000)
	return n
}

// notifyTimeout bounds a notify command and a webhook post.
const notifyTimeout = 30 * time.Second

// runNotifyCmd runs cmd with sh -c, the notice in its environment only
// (LOOKOUT_SESSION, LOOKOUT_TITLE, LOOKOUT_REASON, LOOKOUT_TEXT,
// LOOKOUT_COUNT): nothing of it is ever part of the command line.
func runNotifyCmd(ctx context.Context, cmd string, n Notice) error {
	ctx, cancel := context.WithTimeout(ctx, notifyTimeout)
	defer cancel()
	c := exec.CommandContext(ctx, "/bin/sh", "-c", cmd)
	c.Env = append(os.Environ(), "LOOKOUT_SESSION="+n.SessionID, "LOOKOUT_TITLE="+n.Title, "LOOKOUT_REASON="+n.Reason,
		"LOOKOUT_TEXT="+n.Text, "LOOKOUT_COUNT="+strconv.Itoa(n.Count))
	return c.Run()
}

// postNotice posts n to url in ntfy's form: the text as a plain body,
// the title and the reason as the Title and Tags headers.
func postNotice(ctx context.Context, client *http.Client, url string, n Notice) error {
	ctx, cancel := context.WithTimeout(ctx, notifyTimeout)
	defer cancel()
	body := n.Text
	if n.Count > 1 {
		body += " (" + strconv.Itoa(n.Count-1) + " more)"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return err
	}
	title := "Lookout: " + n.Reason
	if n.Title != "" {
		title += " - " + n.Title
	}
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	req.Header.Set("Title", title)
	req.Header.Set("Tags", n.Reason)
	req.Header.Set("X-Lookout-Session", n.SessionID)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return &notifyStatusError{resp.StatusCode}
	}
	return nil
}

type notifyStatusError struct{ code int }

func (e *notifyStatusError) Error() string {
	return "the notify URL answered HTTP " + strconv.Itoa(e.code)
}

// newNotices is the host's notice gate, sending to NotifyCmd and
// NotifyURL; nil when neither is set.
func (h *Host) newNotices() *noticeGate {
	cmd, url := h.opts.NotifyCmd, h.opts.NotifyURL
	if cmd == "" && url == "" {
		return nil
	}
	client := &http.Client{Timeout: notifyTimeout}
	return newNoticeGate(func(n Notice) {
		n = n.clean()
		if cmd != "" {
			if err := runNotifyCmd(context.Background(), cmd, n); err != nil {
				h.log.Warn("the notify command failed", "session", n.SessionID, "reason", n.Reason, "err", err)
			}
		}
		if url != "" {
			if err := postNotice(context.Background(), client, url, n); err != nil {
				h.log.Warn("posting a notice failed", "session", n.SessionID, "reason", n.Reason, "err", err)
			}
		}
	})
}

// noticesLocked is the notices a committed batch makes, for a caller
// holding s.mu. A replica makes none (the session's writer tells), nor a
// session someone is looking at (a subscriber reported it focused).
func (s *session) noticesLocked(batch []pendingEvent) []Notice {
	if s.h.notices == nil || s.replica || s.watchedLocked() {
		return nil
	}
	var out []Notice
	for _, p := range batch {
		if p.ev == nil {
			continue
		}
		summary := ""
		if p.ev.Method == model.MethodApprovalRequested {
			for _, a := range s.state.Approvals() {
				if a.ApprovalID == p.ev.ApprovalID {
					summary = a.Summary
				}
			}
		}
		n, ok := noticeFor(p.ev, summary)
		if !ok {
			continue
		}
		n.SessionID = s.id
		if raw := s.state.Value("title"); raw != nil {
			_ = json.Unmarshal(raw, &n.Title) // not a string: no title
		}
		out = append(out, n)
	}
	return out
}

// offerNotices hands notices to the host's gate.
func (s *session) offerNotices(ns []Notice) {
	for _, n := range ns {
		s.h.notices.offer(n)
	}
}

// focusSession is session/focus: the client says whether its user is
// looking at the session now (the session on screen and the terminal
// focused). While one is, the host sends no notice for the session.
func (c *conn) focusSession(params json.RawMessage) (any, *rpcError) {
	var p struct {
		sessionParams
		Focused *bool `json:"focused"`
	}
	s, e := c.decodeSession(params, &p, &p.sessionParams)
	if e != nil {
		return nil, e
	}
	if p.Focused == nil {
		return nil, errInvalidParams("session/focus needs focused (a boolean)")
	}
	if *p.Focused {
		id := s.id
		c.focus.Store(&id)
	} else if cur := c.focus.Load(); cur != nil && *cur == s.id {
		c.focus.Store(nil)
	}
	return struct{}{}, nil
}

// watchedLocked reports whether a subscriber's user looks at the session
// (caller holds s.mu).
func (s *session) watchedLocked() bool {
	for c := range s.subs {
		if f := c.focus.Load(); f != nil && *f == s.id {
			return true
		}
	}
	return false
}
