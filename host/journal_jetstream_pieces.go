package host

// A record bigger than a message may carry (an item/completed holding a
// whole 1 MiB answer, when NATS's max_payload is its default 1 MiB) is
// stored in pieces: the encoding of the part holding it, cut into
// consecutive messages of the commit's group (Lookout-Piece k of
// Lookout-Pieces). Only the last piece carries the part's event range
// and streams flag; the index names the part by its first and last
// piece once the group is complete, and readers join the pieces' bytes
// before decoding (docs/fleet.md, "The journal in JetStream").

// commitMsg is one message of a commit: a whole part, or one piece of a
// part too big for a message.
type commitMsg struct {
	part          commit // the part it carries whole, or a piece of
	body          []byte
	piece, pieces int  // 1-based; 0 for a whole part
	ends          bool // a whole part or its last piece: it carries the part's headers
}

// commitMessages encodes parts as messages of at most maxBytes of body.
func commitMessages(parts []commit, maxBytes int) []commitMsg {
	var out []commitMsg
	for _, p := range parts {
		body := p.encode()
		if len(body) <= maxBytes {
			out = append(out, commitMsg{part: p, body: body, ends: true})
			continue
		}
		n := (len(body) + maxBytes - 1) / maxBytes
		for k := range n {
			out = append(out, commitMsg{part: p, body: body[k*maxBytes : min((k+1)*maxBytes, len(body))],
				piece: k + 1, pieces: n, ends: k == n-1})
		}
	}
	return out
}

// joinPieces turns the refs of a complete group's messages into the refs
// of its parts: each run of pieces becomes one ref from its first piece
// (at) to its last (end), with the last piece's headers. A run out of
// order (a corrupt group) is dropped, so that no read decodes part of it.
func joinPieces(refs []commitRef) []commitRef {
	var out []commitRef
	var first uint64
	want := 1
	for _, r := range refs {
		if r.pieces == 0 {
			out, want = append(out, r), 1
			continue
		}
		if r.piece != want {
			want = 1
			continue
		}
		if r.piece == 1 {
			first = r.at
		}
		want++
		if r.piece == r.pieces {
			r.at, r.end = first, r.at
			out, want = append(out, r), 1
		}
	}
	return out
}

// pieced reports whether the commit ref names spans several messages.
func (r commitRef) pieced() bool { return r.end > r.at }
