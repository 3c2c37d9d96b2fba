package movegen

// noDirection is passed as the incoming direction of a capture's first
// jump; its opposite (3-4, wrapped) matches no real direction.
const noDirection Direction = 4

// captureGen is the state of the capture search for one position. It lives
// on the caller's stack; the moves found go to the caller's buffer.
type captureGen struct {
	v        *Variant
	moves    []Move
	opp      Bitboard // enemy pieces, taken ones included (they stay until the move ends)
	oppKings Bitboard
	empty    Bitboard     // free squares, the moving piece's start square included
	promo    Bitboard     // the row where the moving side promotes
	mask     *[4]Bitboard // the directions men capture in (Variant.manCapMask)
	from     Square
	promoted bool // the man became a king earlier in this sequence (russian)
	// promoteInCapture: a man reaching the far row mid-capture goes on as a king.
	promoteInCapture bool
	best             int // precedence score of the moves kept so far

	// trace is set by CapturePaths, which collects paths instead of moves.
	trace *captureTrace
}

// captureTrace follows the landing squares of the sequence being explored
// and collects every path that plays the move want.
type captureTrace struct {
	path  [maxCaptures + 1]Square
	depth int
	want  Move
	paths [][]Square
}

// maxCaptures bounds the pieces one move can take (a side has 12).
const maxCaptures = 12

// appendCaptures appends the legal captures of p (after the precedence
// rule) to buf, which must be empty. The search starts from the first jumps
// of men, given per direction (see jumpSources), and from every king.
func (v *Variant) appendCaptures(p *Position, first [4]Bitboard, buf []Move) []Move {
	us := p.Side
	g := captureGen{
		v:        v,
		moves:    buf,
		opp:      p.Pieces[us.Other()],
		oppKings: p.KingsOf(us.Other()),
		promo:    promotionRow(us),
		mask:     &v.manCapMask[us],

		promoteInCapture: v.LastRow == PromotesAndContinues,
	}
	empty := p.Empty()
	for d, b := range first {
		for ; b != 0; b &= b - 1 {
			g.from = b.First()
			g.empty = empty | g.from.Bit()
			g.manJump(g.from, Direction(d), 0)
		}
	}
	for b := p.KingsOf(us); b != 0; b &= b - 1 {
		g.from = b.First()
		g.empty = empty | g.from.Bit()
		g.king(g.from, 0, noDirection)
	}
	return g.moves
}

// man extends a capture by a man standing on s having taken captured so
// far. It reports whether any further jump exists; when none does the
// caller ends the move.
func (g *captureGen) man(s Square, captured Bitboard) bool {
	targets := g.opp &^ captured
	if targets&adjacent[s&63] == 0 {
		return false // the usual end of a sequence
	}
	ul, ur, dl, dr := jumpSources(s.Bit(), targets, g.empty, g.mask)
	if ul|ur|dl|dr == 0 {
		return false
	}
	if ul != 0 {
		g.manJump(s, UpLeft, captured)
	}
	if ur != 0 {
		g.manJump(s, UpRight, captured)
	}
	if dl != 0 {
		g.manJump(s, DownLeft, captured)
	}
	if dr != 0 {
		g.manJump(s, DownRight, captured)
	}
	return true
}

// manJump plays the jump of a man from s in direction d and goes on.
func (g *captureGen) manJump(s Square, d Direction, captured Bitboard) {
	land := landSquare[d][s]
	taken := captured | jumpOver[d][s]
	if g.trace != nil {
		g.trace.path[g.trace.depth] = land
		g.trace.depth++
	}
	switch {
	case g.promoteInCapture && g.promo.Has(land):
		g.promoted = true
		if !g.king(land, taken, d) {
			g.add(land, taken)
		}
		g.promoted = false
	case !g.man(land, taken):
		g.promoted = g.promo.Has(land)
		g.add(land, taken)
		g.promoted = false
	}
	if g.trace != nil {
		g.trace.depth--
	}
}

// king extends a capture by a king on s that arrived moving in direction
// last. A flying king takes the first piece on a line if the square behind
// it is free, and may land on any free square up to the next piece; when
// some of those landings let the capture go on, it must take one of them.
// (In brazilian and portuguese the precedence rule implies this; russian
// states it.)
func (g *captureGen) king(s Square, captured Bitboard, last Direction) bool {
	found := false
	for d := UpLeft; d <= DownRight; d++ {
		if d == last.opposite() {
			continue // the piece just taken blocks the way back
		}
		occupied := ray[d][s] &^ g.empty
		if occupied == 0 {
			continue
		}
		x := firstOn(d, occupied)
		if (g.opp&^captured)&x.Bit() == 0 {
			continue
		}
		landing := kingSlide(x, d, g.empty)
		if landing == 0 {
			continue
		}
		found = true
		taken := captured | x.Bit()
		goesOn := false
		t := g.trace
		if t != nil {
			t.depth++
		}
		for l := landing; l != 0; l &= l - 1 {
			if t != nil {
				t.path[t.depth-1] = l.First()
			}
			if g.king(l.First(), taken, d) {
				goesOn = true
			}
		}
		if !goesOn {
			for l := landing; l != 0; l &= l - 1 {
				if t != nil {
					t.path[t.depth-1] = l.First()
				}
				g.add(l.First(), taken)
			}
		}
		if t != nil {
			t.depth--
		}
	}
	return found
}

// add records a finished capture ending on to, applying the precedence rule
// and dropping duplicates.
func (g *captureGen) add(to Square, captured Bitboard) {
	if t := g.trace; t != nil {
		if NewMove(g.from, to, captured, false) == t.want.identity() {
			t.paths = append(t.paths, append([]Square(nil), t.path[:t.depth]...))
		}
		return
	}
	var score int
	switch g.v.Precedence {
	case MostPieces:
		score = captured.Count()
	case MostPiecesThenKings:
		score = captured.Count()<<5 | (captured & g.oppKings).Count()
	}
	if score < g.best {
		return
	}
	if score > g.best {
		g.moves = g.moves[:0]
		g.best = score
	}
	m := NewMove(g.from, to, captured, g.promoted)
	for i, o := range g.moves {
		if o.identity() == m.identity() {
			// The same move by another path. If one path promotes (a
			// russian man crossing the far row), the move may promote.
			g.moves[i] |= m & movePromotes
			return
		}
	}
	g.moves = append(g.moves, m)
}

// CapturePaths returns every sequence of landing squares by which the legal
// capture m can be played in p (the last one is m.To()). Several paths exist
// when a king goes round a loop. It is for notation, not for search.
func (v *Variant) CapturePaths(p *Position, m Move) [][]Square {
	if !m.IsCapture() {
		return nil
	}
	us := p.Side
	g := captureGen{
		v:        v,
		opp:      p.Pieces[us.Other()],
		oppKings: p.KingsOf(us.Other()),
		promo:    promotionRow(us),
		mask:     &v.manCapMask[us],
		from:     m.From(),

		promoteInCapture: v.LastRow == PromotesAndContinues,
		empty:            p.Empty() | m.From().Bit(),
		trace:            &captureTrace{want: m},
	}
	if p.Kings.Has(g.from) {
		g.king(g.from, 0, noDirection)
	} else if p.Pieces[us].Has(g.from) {
		g.man(g.from, 0)
	}
	return g.trace.paths
}
