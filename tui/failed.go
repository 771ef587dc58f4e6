package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

// A prompt the host did not run (its turn failed to launch, or it was
// rejected) does not vanish: the source gives it back (Snapshot.Returned,
// sync.GivesBack) and the UI keeps it as a failed row where it was sent,
// with the reason, until the user takes its text back into the composer
// (keymap Transcript.TakeBack and Global.TakeBack, e / alt+e). The fold
// has retired it; these rows are the UI's record of what the source
// returned, like a text restored to the composer.

// pendingFailed is the display status of a failed prompt's row (never a
// fold status).
const pendingFailed model.PendingStatus = "failed"

// maxFailed bounds the failed rows kept; the oldest go first.
const maxFailed = 16

// failedPrompt is one failed row: its entry (where it was, what it said)
// and why.
type failedPrompt struct {
	entry   model.PendingEntry
	verdict string // "not run", "rejected"
	reason  string
}

// failedFrom makes the failed row for a returned retirement. seen is the
// entry as the last Views showed it (its place); without it the row goes
// after the last item. The reason is the retirement's detail, else the
// last turn's error when that turn failed before it started.
func failedFrom(r model.Retirement, seen model.PendingEntry, ok bool, v *model.View) failedPrompt {
	e := seen
	if !ok {
		e = model.PendingEntry{CommandID: r.CommandID, Order: ^uint64(0) >> 1}
		if v != nil && len(v.Items) > 0 {
			e.Anchor = v.Items[len(v.Items)-1].Position
		}
	}
	e.Text, e.Status = r.Text, pendingFailed
	f := failedPrompt{entry: e, verdict: "not run", reason: r.Detail}
	if r.Reason == model.RetiredRejected {
		f.verdict = "rejected"
	}
	if f.reason == "" && v != nil && v.LastTurn != nil && !v.LastTurn.Started &&
		v.LastTurn.Status == model.StatusFailed && v.LastTurn.Error != nil {
		f.reason = v.LastTurn.Error.Message
	}
	if f.reason == "" {
		f.reason = "the host did not run it"
	}
	return f
}

// takeReturned handles the source's returned prompts, each once: texts
// that go back do so into the composer, failed ones become failed rows.
func (m *Model) takeReturned(snap sync.Picture) {
	changed := false
	for i, r := range snap.Returned {
		n := snap.ReturnedBase + uint64(i)
		if n <= m.taken {
			continue
		}
		m.taken = n
		switch {
		case r.Reason.ReturnsText():
			m.comp.restore(r.Text)
			why := "unqueued"
			if r.Reason == model.RetiredGaveUp {
				why = "could not be sent"
			}
			m.setNotice("prompt "+why+": back in the composer", r.Reason == model.RetiredGaveUp)
		case sync.GivesBack(r.Reason):
			seen, ok := m.pendSeen[r.CommandID]
			m.failed = append(m.failed, failedFrom(r, seen, ok, snap.View))
			if len(m.failed) > maxFailed {
				m.failed = m.failed[1:]
			}
			changed = true
			m.setNotice("a prompt was not run: "+bindingKeys(m.km.Global.TakeBack)+" puts it back in the composer", true)
		}
	}
	// Remember where this client's pending prompts are, for the next time.
	if v := snap.View; v != nil {
		clear(m.pendSeen)
		for _, p := range v.Pending {
			m.pendSeen[p.CommandID] = p
		}
	}
	if changed {
		m.syncFailedRows()
	}
}

// syncFailedRows hands the failed rows to the transcript and rebuilds its
// rows.
func (m *Model) syncFailedRows() {
	m.tr.setFailed(m.failed)
	if m.view != nil {
		m.tr.setView(m.view, m.start, m.snap.HistoryLoading)
	}
	m.dirty = true
}

// takeBack puts a failed prompt's text back in the composer (before the
// draft) and drops its row: the selected row when it is one, else the
// newest.
func (m *Model) takeBack() tea.Cmd {
	i := len(m.failed) - 1
	if row, ok := m.tr.selectedRow(); ok && row.Pending != nil && row.Pending.Status == pendingFailed {
		for j, f := range m.failed {
			if f.entry.CommandID == row.Pending.CommandID {
				i = j
			}
		}
	}
	if i < 0 {
		m.setNotice("no failed prompt to take back", true)
		return m.expireNotice()
	}
	text := m.failed[i].entry.Text
	m.failed = append(m.failed[:i:i], m.failed[i+1:]...)
	m.syncFailedRows()
	m.comp.restore(text)
	m.setNotice("the failed prompt is back in the composer", false)
	return tea.Batch(m.focusComposer(), m.expireNotice())
}
