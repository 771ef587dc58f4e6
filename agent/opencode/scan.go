package opencode

import (
	"errors"

	"github.com/lookout-sh/lookout/model"
)

// OpenCode streams an answer as thousands of events a second, each read
// three times (the event, its session, its delta). These readers pick the
// members those reads need with model's member scanner instead of by
// reflection; anything they do not read as json.Unmarshal would makes
// them report false, and the caller falls back to json.Unmarshal.

// errNotPlain stops a scan at a member json.Unmarshal must read.
var errNotPlain = errors.New("not a plain member")

// stringMembers sets *dst[name] for each member of the object raw (valid
// JSON) named in dst whose value is a string; null leaves it unset, as
// json.Unmarshal does. false: raw is not an object, or a named member is
// neither.
func stringMembers(raw []byte, dst map[string]*string) bool {
	return model.EachMember(raw, func(k, v []byte) error {
		if len(k) < 2 {
			return errNotPlain
		}
		p := dst[string(k[1:len(k)-1])]
		if p == nil {
			return nil
		}
		return plainString(v, p)
	}) == nil
}

// plainString sets *dst to the string v, or leaves it for null, as
// json.Unmarshal does; errNotPlain for any other value.
func plainString(v []byte, dst *string) error {
	if string(v) == "null" {
		return nil
	}
	s, ok := model.Unquote(v)
	if !ok {
		return errNotPlain
	}
	*dst = s
	return nil
}

// decodeGlobalEvent reads one event of the stream: {directory, payload:
// {type, properties}}.
func decodeGlobalEvent(data []byte) (globalEvent, bool) {
	var ge globalEvent
	if !model.ValidJSON(data) {
		return ge, false
	}
	err := model.EachMember(data, func(k, v []byte) error {
		switch {
		case model.KeyIs(k, "directory"):
			return plainString(v, &ge.Directory)
		case model.KeyIs(k, "payload"):
			return model.EachMember(v, func(k, v []byte) error {
				switch {
				case model.KeyIs(k, "type"):
					return plainString(v, &ge.Payload.Type)
				case model.KeyIs(k, "properties"):
					ge.Payload.Properties = v
				}
				return nil
			})
		}
		return nil
	})
	return ge, err == nil
}
