package host

import "fmt"

// forkLog remembers the commits a session's index skipped because their
// seqs do not follow the session's chain: a second writer appended them
// (journals written before commits were fenced by writer, docs/fleet.md
// "One writer"). Reads serve the first chain and never loop on the
// other; the host reports what was skipped.
type forkLog struct {
	skipped     int       // commits
	first, last commitRef // the first and last skipped commit
	after       commitRef // the chain's commit the first skipped one followed
}

func (f *forkLog) add(ref, after commitRef) {
	if f.skipped == 0 {
		f.first, f.after = ref, after
	}
	f.last = ref
	f.skipped++
}

// String describes the fork for an operator: which seqs, which writers.
func (f forkLog) String() string {
	if f.skipped == 0 {
		return ""
	}
	return fmt.Sprintf("%d commits of a second writer skipped: the first at stream seq %d (seqs %d-%d, writer %s) after stream seq %d (seq %d, writer %s), the last at stream seq %d (seqs %d-%d)",
		f.skipped, f.first.at, f.first.first, f.first.last, writerName(f.first.writer),
		f.after.at, f.after.last, writerName(f.after.writer), f.last.at, f.last.first, f.last.last)
}

func writerName(w string) string {
	if w == "" {
		return "unnamed"
	}
	return w
}

// forks reports the second-writer commits skipped in session sid's
// journal so far ("" when there are none).
func (j *jsJournal) forks(sid string) string {
	l := j.log(sid)
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.forks.String()
}

// forkReporter is a journal that can report forks (JetStream's).
type forkReporter interface{ forks(sid string) string }
