package opencode

import (
	"encoding/json"
	"fmt"

	"github.com/lookout-sh/lookout/model"
)

// globalEvent is one event of GET /global/event: an instance event and the
// directory it happened in.
type globalEvent struct {
	Directory string `json:"directory"`
	Payload   event  `json:"payload"`
}

// event is an OpenCode bus event.
type event struct {
	Type       string          `json:"type"`
	Properties json.RawMessage `json:"properties"`
}

// sessionOf returns the sessionID an event's properties name, or "".
func sessionOf(props json.RawMessage) string {
	if id, ok := plainSessionOf(props); ok {
		return id
	}
	var p struct {
		SessionID string `json:"sessionID"`
		Part      struct {
			SessionID string `json:"sessionID"`
		} `json:"part"`
		Info struct {
			SessionID string `json:"sessionID"`
		} `json:"info"`
	}
	if json.Unmarshal(props, &p) != nil {
		return ""
	}
	switch {
	case p.SessionID != "":
		return p.SessionID
	case p.Part.SessionID != "":
		return p.Part.SessionID
	}
	return p.Info.SessionID
}

// plainSessionOf is sessionOf by model's member scanner; false when a
// member it reads is not a plain string or object.
func plainSessionOf(props []byte) (string, bool) {
	var top, part, info string
	ok := model.EachMember(props, func(k, v []byte) error {
		switch {
		case model.KeyIs(k, "sessionID"):
			return plainString(v, &top)
		case model.KeyIs(k, "part") && string(v) != "null":
			if !stringMembers(v, map[string]*string{"sessionID": &part}) {
				return errNotPlain
			}
		case model.KeyIs(k, "info") && string(v) != "null":
			if !stringMembers(v, map[string]*string{"sessionID": &info}) {
				return errNotPlain
			}
		}
		return nil
	}) == nil
	switch {
	case !ok:
		return "", false
	case top != "":
		return top, true
	case part != "":
		return part, true
	}
	return info, true
}

// messageInfo is the part of a message.updated info the bridge reads.
type messageInfo struct {
	ID         string   `json:"id"`
	Role       string   `json:"role"`
	ParentID   string   `json:"parentID"`
	ModelID    string   `json:"modelID"`
	ProviderID string   `json:"providerID"`
	Error      *ocError `json:"error"`
	Time       struct {
		Completed *int64 `json:"completed"`
	} `json:"time"`
}

// sessionInfo is the part of a session.updated info the bridge reads.
type sessionInfo struct {
	ID     string  `json:"id"`
	Title  string  `json:"title"`
	Cost   float64 `json:"cost"`
	Tokens *tokens `json:"tokens"`
}

// tokens is OpenCode's token count of a step, a message or a session.
type tokens struct {
	Total     float64 `json:"total"`
	Input     float64 `json:"input"`
	Output    float64 `json:"output"`
	Reasoning float64 `json:"reasoning"`
	Cache     struct {
		Read  float64 `json:"read"`
		Write float64 `json:"write"`
	} `json:"cache"`
}

// ocError is an OpenCode error object: {name, data: {message, ...}}.
type ocError struct {
	Name string `json:"name"`
	Data struct {
		Message     string `json:"message"`
		StatusCode  int    `json:"statusCode"`
		IsRetryable bool   `json:"isRetryable"`
	} `json:"data"`
}

// text is the error's message, with its HTTP status when it has one.
func (e ocError) text() string {
	msg := e.Data.Message
	if msg == "" {
		msg = e.Name
	}
	if e.Data.StatusCode != 0 {
		msg = fmt.Sprintf("%s (HTTP %d)", msg, e.Data.StatusCode)
	}
	return msg
}

// part is an OpenCode message part; only the members of its Type are set.
type part struct {
	ID        string `json:"id"`
	SessionID string `json:"sessionID"`
	MessageID string `json:"messageID"`
	Type      string `json:"type"`
	// text, reasoning
	Text      string `json:"text"`
	Synthetic bool   `json:"synthetic"`
	Ignored   bool   `json:"ignored"`
	Time      *struct {
		Start *int64 `json:"start"`
		End   *int64 `json:"end"`
	} `json:"time"`
	// tool
	CallID string     `json:"callID"`
	Tool   string     `json:"tool"`
	State  *toolState `json:"state"`
	// step-finish
	Cost   float64 `json:"cost"`
	Tokens *tokens `json:"tokens"`
	// patch
	Files []string `json:"files"`

	Raw json.RawMessage `json:"-"`
}

// ended reports whether a text or reasoning part is complete.
func (p *part) ended() bool { return p.Time != nil && p.Time.End != nil }

// toolState is a tool part's state: pending, running, completed or error.
type toolState struct {
	Status   string                     `json:"status"`
	Input    map[string]any             `json:"input"`
	Raw      string                     `json:"raw"`
	Output   string                     `json:"output"`
	Error    string                     `json:"error"`
	Title    string                     `json:"title"`
	Metadata map[string]json.RawMessage `json:"metadata"`
}

// meta decodes one metadata member into out; it reports whether it was
// there and readable.
func (s *toolState) meta(name string, out any) bool {
	raw, ok := s.Metadata[name]
	return ok && json.Unmarshal(raw, out) == nil
}

func decodePart(raw json.RawMessage) (*part, error) {
	var p part
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	if p.ID == "" || p.Type == "" || p.MessageID == "" {
		return nil, fmt.Errorf("a part without id, type or messageID")
	}
	p.Raw = raw
	return &p, nil
}

// permissionAsked is a permission.asked event's properties.
type permissionAsked struct {
	ID         string                     `json:"id"`
	SessionID  string                     `json:"sessionID"`
	Permission string                     `json:"permission"`
	Patterns   []string                   `json:"patterns"`
	Metadata   map[string]json.RawMessage `json:"metadata"`
	Always     []string                   `json:"always"`
	Tool       *struct {
		MessageID string `json:"messageID"`
		CallID    string `json:"callID"`
	} `json:"tool"`
}

func (p permissionAsked) metaString(name string) string {
	var s string
	if raw, ok := p.Metadata[name]; ok {
		_ = json.Unmarshal(raw, &s)
	}
	return s
}
