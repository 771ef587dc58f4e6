package host

// QueuedPeak is the most bytes one of h's connections ever had queued for
// writing (its outbound queue plus the batch being written).
func QueuedPeak(h *Host) int64 { return h.queuedPeak.Load() }

// SlowCloses counts h's connections closed with 1013 because their
// outbound queue was full.
func SlowCloses(h *Host) int64 { return h.slowCloses.Load() }
