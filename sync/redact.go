package sync

import (
	"net/url"
	"strings"
)

// redactURL is a host URL fit for a message: the value of every query
// parameter whose name mentions "token" (the protocol's ?token=T) and any
// password are replaced, so an error never shows a token a user put in a
// URL. Anything unparsable loses its query altogether.
func redactURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		if i := strings.IndexAny(raw, "?#"); i >= 0 {
			return raw[:i] + "?[redacted]"
		}
		return raw
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			if strings.Contains(strings.ToLower(k), "token") {
				q[k] = []string{"REDACTED"}
			}
		}
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}
