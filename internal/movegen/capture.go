package movegen

// noDirection is passed as the incoming direction of a capture's first
// jump; its opposite (3-4, wrapped) matches no real direction.
const noDirection Direction = 4

// captureGen is the state of the capture search for one position. It lives
// on the caller's stack; the moves found go to the caller's buffer.
type captureGen struct {
	moves    []Move
	opp      Bitboard // enemy pieces, taken ones included (they stay until the move ends)
	oppKings Bitboard
	empty    Bitboard // free squares, the moving piece's start square included
	promo    Bitboard // the row where the moving side promotes
	// kingRow is promo where a man reaching it mid-capture goes on as a
	// king (russian), else empty.
	kingRow  Bitboard
	mask     *[4]Bitboard // the directions men capture in (Variant.manCapMask)
	best     int          // precedence score of the moves kept so far
	from     Square
	prec     Precedence
	promoted bool // the man became a king earlier in this sequence (russian)

	// trace is set by CapturePaths, which collects paths instead of moves.
	trace *captureTrace
}

// captureTrace follows the landing squares of the sequence being explored
// and collects every path that plays the move want. The sequence's length
// is the number of pieces taken so far, so it needs no depth of its own.
type captureTrace struct {
	path  [maxCaptures + 1]Square
	want  Move
	paths [][]Square
}

// maxCaptures bounds the pieces one move can take (a side has 12).
const maxCaptures = 12

// init readies g for the side to move in p. It fills the fields in place:
// building a captureGen value and copying it costs more than the search
// of a typical position.
func (g *captureGen) init(v *Variant, p *Position, buf []Move) {
	us := p.Side & 1
	g.moves = buf
	g.opp = p.Pieces[us^1]
	g.oppKings = p.Pieces[us^1] & p.Kings
	g.promo = PromotionRow(us)
	if v.LastRow == PromotesAndContinues {
		g.kingRow = g.promo
	}
	g.mask = &v.manCapMask[us]
	g.prec = v.Precedence
}

// appendCaptures appends the legal captures of p (after the precedence
// rule) to buf, which must be empty. The search starts from the first jumps
// of men, given per direction (see jumpSources), and from every king.
func (v *Variant) appendCaptures(p *Position, ul, ur, dl, dr Bitboard, buf []Move) []Move {
	var g captureGen
	g.init(v, p, buf)
	g.menJumps(ul, ur, dl, dr, p.Empty())
	for b := p.Pieces[p.Side&1] & p.Kings; b != 0; b &= b - 1 {
		g.from = b.First()
		g.empty = p.Empty() | b&-b
		g.king(g.from, 0, noDirection)
	}
	return g.moves
}

// menJumps searches the captures of men that start with the jumps given
// per direction (see jumpSources); empty holds the free squares.
func (g *captureGen) menJumps(ul, ur, dl, dr, empty Bitboard) {
	for men := ul | ur | dl | dr; men != 0; men &= men - 1 {
		b := men & -men
		g.from = b.First()
		g.empty = empty | b
		if ul&b != 0 {
			g.manJump(b>>10, b>>5, UpLeft)
		}
		if ur&b != 0 {
			g.manJump(b>>8, b>>4, UpRight)
		}
		if dl&b != 0 {
			g.manJump(b<<8, b<<4, DownLeft)
		}
		if dr&b != 0 {
			g.manJump(b<<10, b<<5, DownRight)
		}
	}
}

// manJump goes on from the landing square land (one bit) of a man's jump
// in direction d, having taken the pieces of taken so far: it follows every
// further jump, or ends the move when there is none.
func (g *captureGen) manJump(land, taken Bitboard, d Direction) {
	if g.trace != nil {
		g.trace.path[taken.Count()-1] = land.First()
	}
	if land&g.kingRow != 0 {
		g.promoted = true
		if !g.king(land.First(), taken, d) {
			g.add(land.First(), taken, true)
		}
		g.promoted = false
		return
	}
	// The jumps from land, as in jumpSources for the one square. A piece
	// taken is no target (the one just taken is also what blocks the way
	// back).
	ul, ur, dl, dr := jumpSources(land, g.opp&^taken, g.empty, g.mask)
	if ul|ur|dl|dr == 0 {
		g.add(land.First(), taken, land&g.promo != 0) // the usual end of a sequence
		return
	}
	if ul != 0 {
		g.manJump(ul>>10, taken|ul>>5, UpLeft)
	}
	if ur != 0 {
		g.manJump(ur>>8, taken|ur>>4, UpRight)
	}
	if dl != 0 {
		g.manJump(dl<<8, taken|dl<<4, DownLeft)
	}
	if dr != 0 {
		g.manJump(dr<<10, taken|dr<<5, DownRight)
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
		for l := landing; l != 0; l &= l - 1 {
			if t != nil {
				t.path[taken.Count()-1] = l.First()
			}
			if g.king(l.First(), taken, d) {
				goesOn = true
			}
		}
		if !goesOn {
			for l := landing; l != 0; l &= l - 1 {
				if t != nil {
					t.path[taken.Count()-1] = l.First()
				}
				g.add(l.First(), taken, g.promoted)
			}
		}
	}
	return found
}

// add records a finished capture ending on to, applying the precedence rule
// and dropping duplicates.
func (g *captureGen) add(to Square, captured Bitboard, promotes bool) {
	if t := g.trace; t != nil {
		if NewMove(g.from, to, captured, false) == t.want.identity() {
			t.paths = append(t.paths, append([]Square(nil), t.path[:captured.Count()]...))
		}
		return
	}
	if g.prec != AnyCapture {
		score := captured.Count() << 5
		if g.prec == MostPiecesThenKings {
			score |= (captured & g.oppKings).Count()
		}
		if score < g.best {
			return
		}
		if score > g.best {
			g.moves = g.moves[:0]
			g.best = score
		}
	}
	m := NewMove(g.from, to, captured, promotes)
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
	var g captureGen
	g.init(v, p, nil)
	g.trace = &captureTrace{want: m}
	from := m.From().Bit()
	if p.Kings&from != 0 {
		g.from = m.From()
		g.empty = p.Empty() | from
		g.king(g.from, 0, noDirection)
	} else if p.Pieces[p.Side&1]&from != 0 {
		ul, ur, dl, dr := jumpSources(from, g.opp, p.Empty()|from, g.mask)
		g.menJumps(ul, ur, dl, dr, p.Empty())
	}
	return g.trace.paths
}

// manCounter counts the captures of men for CountMoves without listing
// them. Two different sequences of jumps by one man that take the same
// pieces and end on the same square would have to come back to a square
// they left, and a man's shortest way back takes four jumps (two would
// take one piece twice, three cannot sum to nothing). So a man's move of
// up to three captures is found by one sequence only, and counting the
// sequences counts the moves. A man that could take a fourth piece, or
// (russian) become a king that can go on capturing, is left to the full
// search.
type manCounter struct {
	opp      Bitboard
	oppKings Bitboard
	empty    Bitboard // free squares, the moving man's start square included
	kingRow  Bitboard // as in captureGen
	mask     *[4]Bitboard
	prec     Precedence
	best, n  int // the precedence score of the moves counted and their number
	bail     bool
}

// countManCaptures returns the number of legal captures in p, whose side
// to move has no king, for men jumping first from ul, ur, dl and dr (per
// direction). It reports false, having counted nothing, when the full
// search is needed.
func (v *Variant) countManCaptures(p *Position, ul, ur, dl, dr Bitboard) (int, bool) {
	us := p.Side & 1
	c := manCounter{
		opp:      p.Pieces[us^1],
		oppKings: p.Pieces[us^1] & p.Kings,
		mask:     &v.manCapMask[us],
		prec:     v.Precedence,
	}
	if v.LastRow == PromotesAndContinues {
		c.kingRow = PromotionRow(us)
	}
	empty := p.Empty()
	for men := ul | ur | dl | dr; men != 0; men &= men - 1 {
		b := men & -men
		c.empty = empty | b
		if ul&b != 0 {
			c.jump(b>>10, b>>5, 1)
		}
		if ur&b != 0 {
			c.jump(b>>8, b>>4, 1)
		}
		if dl&b != 0 {
			c.jump(b<<8, b<<4, 1)
		}
		if dr&b != 0 {
			c.jump(b<<10, b<<5, 1)
		}
	}
	return c.n, !c.bail
}

// jump follows a man's capture from its landing square land, having taken
// the depth pieces of taken.
func (c *manCounter) jump(land, taken Bitboard, depth int) {
	var ul, ur, dl, dr Bitboard
	if land&c.kingRow != 0 {
		// The man becomes a king. If the king can take nothing more the
		// move ends here; if it can, the full search takes over. (The
		// pieces taken block its way, as in captureGen.king.)
		if kingCanTake(land.First(), c.opp&^taken, c.empty) {
			c.bail = true
			return
		}
	} else {
		ul, ur, dl, dr = jumpSources(land, c.opp&^taken, c.empty, c.mask)
	}
	if ul|ur|dl|dr == 0 {
		// The end of a move: count it under the precedence rule.
		if c.prec == AnyCapture {
			c.n++
			return
		}
		score := depth << 5
		if c.prec == MostPiecesThenKings {
			score |= (taken & c.oppKings).Count()
		}
		if score > c.best {
			c.best, c.n = score, 0
		}
		if score == c.best {
			c.n++
		}
		return
	}
	if depth == 3 {
		c.bail = true
		return
	}
	if ul != 0 {
		c.jump(ul>>10, taken|ul>>5, depth+1)
	}
	if ur != 0 {
		c.jump(ur>>8, taken|ur>>4, depth+1)
	}
	if dl != 0 {
		c.jump(dl<<8, taken|dl<<4, depth+1)
	}
	if dr != 0 {
		c.jump(dr<<10, taken|dr<<5, depth+1)
	}
}

// kingCanTake reports whether a king on s can take a piece of targets: the
// first piece on one of its lines is a target with a free square behind.
func kingCanTake(s Square, targets, empty Bitboard) bool {
	for d := UpLeft; d <= DownRight; d++ {
		if occupied := ray[d][s] &^ empty; occupied != 0 {
			x := firstOn(d, occupied).Bit()
			if x&targets != 0 && x.Shift(d)&empty != 0 {
				return true
			}
		}
	}
	return false
}
