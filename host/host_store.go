package host

import "errors"

// The host's store is its journal, which knows nothing of fleets; a fleet
// host's membership (h.fl) works beside it. These are the few places the
// two meet.

// meta reads this host's meta value k.
func (h *Host) meta(k string) (string, error) { return h.j.meta(h.metaKey(k)) }

// setMeta writes this host's meta value k.
func (h *Host) setMeta(k, v string) error { return h.j.setMeta(h.metaKey(k), v) }

// metaKey is the journal's key for this host's meta value k: in a fleet
// the journal's meta values are shared, so each host's are its own.
func (h *Host) metaKey(k string) string {
	if h.fl != nil {
		return h.fl.metaKey(k)
	}
	return k
}

// closeStore leaves the fleet, if the host is in one (releasing its
// leases), then closes the journal.
func (h *Host) closeStore() error {
	var errs []error
	if h.fl != nil {
		errs = append(errs, h.fl.close())
	}
	return errors.Join(append(errs, h.j.close())...)
}
