package sync

import (
	"slices"
	"testing"
)

func TestCompareSessions(t *testing.T) {
	cases := []struct {
		name string
		in   []SessionInfo
		want []string
	}{
		{"newest first", []SessionInfo{
			{SessionID: "old", UpdatedAt: "2026-01-01T00:00:00Z"},
			{SessionID: "new", UpdatedAt: "2026-03-01T00:00:00Z"},
			{SessionID: "mid", UpdatedAt: "2026-02-01T00:00:00Z"},
		}, []string{"new", "mid", "old"}},
		// As text "…00Z" sorts after "…00.5Z"; as time it is older.
		{"fractional seconds by time, not text", []SessionInfo{
			{SessionID: "whole", UpdatedAt: "2026-03-01T00:00:00Z"},
			{SessionID: "half", UpdatedAt: "2026-03-01T00:00:00.5Z"},
			{SessionID: "nanos", UpdatedAt: "2026-03-01T00:00:00.123456789Z"},
		}, []string{"half", "nanos", "whole"}},
		{"time zones", []SessionInfo{
			{SessionID: "utc", UpdatedAt: "2026-03-01T10:00:00Z"},
			{SessionID: "plus2", UpdatedAt: "2026-03-01T11:00:00+02:00"}, // 09:00 UTC
		}, []string{"utc", "plus2"}},
		{"unreadable times last, ties by id", []SessionInfo{
			{SessionID: "b", UpdatedAt: ""},
			{SessionID: "x", UpdatedAt: "yesterday"},
			{SessionID: "a", UpdatedAt: ""},
			{SessionID: "t", UpdatedAt: "2026-03-01T00:00:00Z"},
		}, []string{"t", "x", "b", "a"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ss := slices.Clone(c.in)
			SortSessions(ss)
			var got []string
			for _, s := range ss {
				got = append(got, s.SessionID)
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("order %v, want %v", got, c.want)
			}
		})
	}
}
