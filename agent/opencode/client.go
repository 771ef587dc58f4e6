package opencode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/lookout-sh/lookout/agent/child"
)

// client speaks OpenCode's HTTP API.
type client struct {
	base     string // "http://127.0.0.1:PORT", no trailing slash
	user, pw string
	http     *http.Client
}

func newClient(base, user, pw string) *client {
	tr := http.DefaultTransport.(*http.Transport).Clone() // proxies skip loopback
	return &client{base: strings.TrimRight(base, "/"), user: user, pw: pw, http: &http.Client{Transport: tr}}
}

// apiError is an answer other than 2xx.
type apiError struct {
	Status int
	Body   string
}

func (e *apiError) Error() string {
	return fmt.Sprintf("HTTP %d: %s", e.Status, child.Cut(strings.TrimSpace(e.Body), 300))
}

func isNotFound(err error) bool {
	var ae *apiError
	return errors.As(err, &ae) && ae.Status == http.StatusNotFound
}

// request builds a request for path in directory dir ("" for the
// server's own).
func (c *client) request(ctx context.Context, method, path, dir string, body any) (*http.Request, error) {
	u := c.base + path
	if dir != "" {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		u += sep + "directory=" + url.QueryEscape(dir)
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.pw != "" {
		user := c.user
		if user == "" {
			user = serverUser
		}
		req.SetBasicAuth(user, c.pw)
	}
	return req, nil
}

// do sends a request and decodes a JSON answer into out (nil: discard).
func (c *client) do(ctx context.Context, method, path, dir string, body, out any) error {
	req, err := c.request(ctx, method, path, dir, body)
	if err != nil {
		return err
	}
	res, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return err
	}
	if res.StatusCode/100 != 2 {
		return &apiError{Status: res.StatusCode, Body: string(b)}
	}
	if out == nil || len(b) == 0 {
		return nil
	}
	return json.Unmarshal(b, out)
}

// events opens the server's event stream of every directory
// (GET /global/event).
func (c *client) events(ctx context.Context) (io.ReadCloser, error) {
	req, err := c.request(ctx, http.MethodGet, "/global/event", "", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	res, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(res.Body, 4<<10))
		res.Body.Close()
		return nil, &apiError{Status: res.StatusCode, Body: string(b)}
	}
	return res.Body, nil
}
