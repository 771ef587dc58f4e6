package sync

// ErrorsSince returns the errors recorded after the first seen of them
// (a count a consumer kept from an earlier Picture's ErrorCount, 0 at
// first), oldest first, and how many of those are no longer held (more
// than Errors keeps were recorded in between). Report them and keep
// ErrorCount as the new seen.
func (s Picture) ErrorsSince(seen uint64) (errs []string, lost uint64) {
	if s.ErrorCount <= seen {
		return nil, 0
	}
	n := s.ErrorCount - seen
	if held := uint64(len(s.Errors)); n > held {
		return s.Errors, n - held
	}
	return s.Errors[uint64(len(s.Errors))-n:], 0
}
