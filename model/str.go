package model

import "unsafe"

// Str is a growable string value inside an item: the target of item/delta
// appends. Its bytes are append-only while it lives: bytes below the current
// length are never rewritten, so a String taken earlier (or a clone made for
// a published View) stays valid and unchanged while the State appends.
type Str struct{ b []byte }

// NewStr returns a Str holding s.
func NewStr(s string) *Str { return &Str{b: []byte(s)} }

// String returns the value without copying.
func (s *Str) String() string {
	if s == nil || len(s.b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(s.b), len(s.b))
}

// Len is the length in bytes.
func (s *Str) Len() int {
	if s == nil {
		return 0
	}
	return len(s.b)
}

func (s *Str) append(d string) { s.b = append(s.b, d...) }

// clone shares the backing array: the State is the only writer and it only
// writes beyond every reader's length.
func (s *Str) clone() *Str { return &Str{b: s.b} }
