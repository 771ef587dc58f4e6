package tui

// refAt is the anchor reference of virtual row v.
func (t *transcript) refAt(v int) rowRef {
	if v == 0 || len(t.set.rows) == 0 {
		return rowRef{header: true}
	}
	return t.set.refOf(v - 1)
}

// resolve turns the anchor into a normalised (v, off) position and stores
// it back. A position on the header is stored relative to the first row
// (a negative offset), so older rows prepended later keep that row in
// place.
func (t *transcript) resolve() (int, int) {
	v, off := 0, t.anchorOff
	if !t.anchor.header {
		if i, ok := t.set.find(t.anchor); ok {
			v = i + 1
		} else {
			// The row is gone: stay at its old index.
			v = min(max(t.anchor.idx, 0), len(t.set.rows)-1) + 1
			if len(t.set.rows) == 0 {
				v = 0
			}
		}
	}
	for off < 0 && v > 0 {
		v--
		off += t.heightOf(v)
	}
	if off < 0 {
		off = 0
	}
	n := t.vcount()
	for v < n-1 && off >= t.heightOf(v) {
		off -= t.heightOf(v)
		v++
	}
	if h := t.heightOf(v); off >= h {
		off = h - 1
	}
	t.setAnchor(v, off)
	return v, off
}

// setAnchor stores position (v, off) as the anchor.
func (t *transcript) setAnchor(v, off int) {
	if v == 0 && len(t.set.rows) > 0 {
		t.anchor, t.anchorOff = t.set.refOf(0), off-t.heightOf(0)
		return
	}
	t.anchor, t.anchorOff = t.refAt(v), off
}

// scroll moves the window by delta lines (negative: up).
func (t *transcript) scroll(delta int) {
	if delta == 0 {
		return
	}
	t.exactTop()
	if t.follow {
		if delta > 0 {
			return
		}
		t.unfollow()
		t.setAnchor(t.topV, t.topOff)
	}
	t.anchorOff += delta
}

// unfollow stops following the bottom. Only what changes at the bottom
// from now on counts as "new below"; the caller sets the anchor.
func (t *transcript) unfollow() {
	if !t.follow {
		return
	}
	t.follow = false
	t.newBelow = false
	t.tailSig = t.tail()
}

// toTop jumps to the header line (the very top).
func (t *transcript) toTop() {
	t.unfollow()
	t.anchor, t.anchorOff = rowRef{header: true}, 0
}

// toBottom follows again.
func (t *transcript) toBottom() {
	t.follow = true
	t.newBelow = false
}

// reveal scrolls so that row i is on screen (its top when it is taller
// than the window).
func (t *transcript) reveal(i int) {
	t.exactTop()
	v := i + 1
	h := t.height
	if h <= 0 {
		return
	}
	if v < t.topV || (v == t.topV && t.topOff > 0) {
		t.unfollow()
		t.setAnchor(v, 0)
		return
	}
	// Lines from the window's top to the end of row v.
	d := t.heightOf(t.topV) - t.topOff
	for w := t.topV + 1; w <= v; w++ {
		if d > 4*h+t.heightOf(v) {
			break
		}
		d += t.heightOf(w)
	}
	if d <= h {
		return
	}
	if v == t.vcount()-1 {
		t.toBottom()
		return
	}
	t.unfollow()
	if t.heightOf(v) > h || d > 4*h {
		t.setAnchor(v, 0)
		return
	}
	t.setAnchor(t.topV, t.topOff)
	t.anchorOff += d - h
}

// page is how far a page scroll moves: the window less two lines of
// context.
func (t *transcript) page() int { return max(1, t.height-2) }

// halfPage is half the window.
func (t *transcript) halfPage() int { return max(1, t.height/2) }
