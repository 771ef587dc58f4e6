package sync

import (
	"encoding/json"

	"github.com/lookout-sh/lookout/model"
)

// The start window: the session's first items, fetched without paging back
// through everything between them and the held range (docs/sync.md,
// "Reaching the start"). `before` pages are by item position
// (docs/protocol.md §6): a page holds the items nearest below its cursor,
// at most limit of them, and positions are distinct integers from 1. So a
// page asked with cursor end+span-1 holds every item in [end, end+span-1)
// beside the window's newest item: at most span items, unless the host's
// byte bound cut the page's oldest. The cursor never passes the client's
// own cursor + 1 (a cursor ahead of the host's head is stale). The window grows downwards page by
// page until it reaches the held range, and then joins it.

// startRequest records what a start-window page asked for.
type startRequest struct {
	Epoch string
	Gen   uint64 // the client's replacement generation when asked
	// End: the window held every item positioned below End when asked.
	End int64
	// Span is the page's limit; Cursor, the position it asks below, is
	// End+Span-1 or less (startCursor).
	Span   int64
	Cursor int64
}

// startCursor is the cursor position of a start page from end with span,
// below the client's cursor + 1.
func startCursor(end, span, cursor int64) int64 { return min(end+span-1, cursor+1) }

// minStartSpan is the narrowest page: its one new position always
// continues the window (see planStartPage).
const minStartSpan = 2

// startNext is what a start-window page comes to.
type startNext int

const (
	// startFold: fold Events into the window, which then holds every
	// item below End; Join: the window reaches the held range.
	startFold startNext = iota
	// startNarrow: the byte bound cut the page, so it does not prove the
	// window whole: ask again with Span.
	startNarrow
	// startStale: asked before a replacement or in another epoch: the
	// window is gone.
	startStale
	// startResync: the held range cannot continue (Why).
	startResync
	// startFailed: record Why; the window stays, the user may ask again.
	startFailed
)

func (n startNext) String() string {
	return [...]string{"fold", "narrow", "stale", "resync", "failed"}[n]
}

// startPlan is what to do with a start-window page: record Notes, then
// Next.
type startPlan struct {
	Next   startNext
	Why    string
	Notes  []string
	Events []*model.Event
	End    int64
	Join   bool
	Span   int64
}

// planStartPage decides about the answer to req. Errors, staleness and
// epochs are judged as for history pages. The page continues the window
// when nothing can be missing between the window and the page: the page
// is empty (nothing below its cursor at all), or starts at or below
// req.End (at the window's newest item, or at End itself), or has nothing
// older than itself. Otherwise the byte bound cut it and it is asked again
// at half the span: at minStartSpan the one new position is End itself,
// so a page always continues the window. The window joins the held range
// when it reaches the held range's oldest position (oldest, 0: none) or
// the page saw nothing newer than its cursor.
func planStartPage(req startRequest, res json.RawMessage, rerr *model.RPCError, held heldRange, oldest int64) startPlan {
	if rerr != nil {
		if rerr.Code == model.CodeStaleCursor {
			return startPlan{Next: startResync, Why: "start page refused as stale (-32020)"}
		}
		return startPlan{Next: startFailed, Why: "view/page before (start) failed: " + rerr.Message}
	}
	r, err := model.DecodePage(res)
	if err != nil {
		return startPlan{Next: startFailed, Why: "malformed view/page before (start) result: " + err.Error()}
	}
	if req.Gen != held.Gen || req.Epoch != held.Epoch {
		return startPlan{Next: startStale}
	}
	if r.Epoch != req.Epoch {
		return startPlan{Next: startResync, Why: "the host's epoch changed"}
	}
	_, first, _ := model.ParseCursor(r.StartCursor)
	if len(r.Events) > 0 && first > req.End && r.HasOlder {
		return startPlan{Next: startNarrow, Span: max(req.Span/2, minStartSpan)}
	}
	p := startPlan{Next: startFold, End: req.Cursor, Events: make([]*model.Event, 0, len(r.Events))}
	p.Join = !r.HasNewer || (oldest > 0 && p.End >= oldest)
	for _, el := range r.Events {
		ev, err := el.Event()
		if err != nil {
			p.Notes = append(p.Notes, "start element: "+err.Error())
			continue
		}
		p.Events = append(p.Events, ev)
	}
	return p
}
