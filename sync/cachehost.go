package sync

import (
	"net/url"
	"strings"
)

// cacheHost is the host URL as the replica cache names it (the header's
// host member and the file's directory): raw without its user info and
// without every query parameter whose name mentions "token" (the
// protocol's ?token=T), so no credential is ever written to the cache.
// Anything unparsable loses its query altogether. A URL with nothing to
// strip is returned as it is.
func cacheHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if i := strings.IndexAny(raw, "?#"); i >= 0 {
			return raw[:i]
		}
		return raw
	}
	changed := u.User != nil
	u.User = nil
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			if strings.Contains(strings.ToLower(k), "token") {
				delete(q, k)
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	if !changed {
		return raw
	}
	return u.String()
}
