package movegen

import "math/bits"

// MaxMoves is a capacity for move buffers that no legal position is known
// to exceed; generation still appends correctly past it (allocating).
const MaxMoves = 256

// Generate appends the legal moves of p to buf[:0] and returns the result.
// Captures are compulsory: when one exists only captures are listed,
// filtered by the variant's precedence rule, each (from, to, captured set)
// once.
func (v *Variant) Generate(p *Position, buf []Move) []Move {
	buf = buf[:0]
	us := p.Side & 1
	own, opp, kings := p.Pieces[us], p.Pieces[us^1], p.Kings
	empty := Valid &^ (own | opp)
	men := own &^ kings
	jul, jur, jdl, jdr := jumpFrom(opp, empty, &v.manCapMask[us])
	jumpers := jul | jur | jdl | jdr
	if men&jumpers == 0 {
		if own&kings == 0 {
			return appendManSteps(us, men, empty, buf)
		}
		if !kingCanCapture(own&kings, opp, empty) {
			return appendQuiet(us, men, own&kings, empty, buf)
		}
	} else if own&kings == 0 && !v.goesOn(us, men&jul, men&jur, men&jdl, men&jdr, jumpers) {
		return v.appendSimple(us, men&jul, men&jur, men&jdl, men&jdr, opp&kings, empty, buf)
	}
	return v.appendCaptures(p, men&jul, men&jur, men&jdl, men&jdr, buf)
}

// CountMoves returns len(Generate(p)), counting instead of listing where it
// can (bulk counting at perft's last ply); scratch is used where it cannot.
func (v *Variant) CountMoves(p *Position, scratch []Move) int {
	us := p.Side & 1
	own, opp, kings := p.Pieces[us], p.Pieces[us^1], p.Kings
	if own&kings != 0 {
		return v.countSlow(p, scratch)
	}
	empty := Valid &^ (own | opp)
	jul, jur, jdl, jdr := jumpFrom(opp, empty, &v.manCapMask[us])
	ul, ur, dl, dr := own&jul, own&jur, own&jdl, own&jdr
	switch {
	case ul|ur|dl|dr == 0:
		return countManSteps(us, own, empty)
	case !v.goesOn(us, ul, ur, dl, dr, jul|jur|jdl|jdr):
		if v.Precedence == MostPiecesThenKings && opp&kings != 0 {
			ul, ur, dl, dr = v.preferKings(us, ul, ur, dl, dr, opp&kings, empty)
		}
		return countJumps(ul, ur, dl, dr)
	}
	if n, ok := v.countManCaptures(p, ul, ur, dl, dr); ok {
		return n
	}
	return v.countSlow(p, scratch)
}

// countSlow is CountMoves by the full capture search where one may be
// needed: for a side that has kings, or a man that can take four pieces or
// become a king and go on (see manCounter). It is kept apart so that the
// common cases stay small.
func (v *Variant) countSlow(p *Position, scratch []Move) int {
	us := p.Side & 1
	own, opp, kings := p.Pieces[us], p.Pieces[us^1], p.Kings
	empty := Valid &^ (own | opp)
	men := own &^ kings
	ul, ur, dl, dr := jumpSources(men, opp, empty, &v.manCapMask[us])
	if ul|ur|dl|dr == 0 && !kingCanCapture(own&kings, opp, empty) {
		return countManSteps(us, men, empty) + countKingSlides(own&kings, empty)
	}
	return len(v.appendCaptures(p, ul, ur, dl, dr, scratch[:0]))
}

// HasCapture reports whether the side to move has a capture (and so must
// capture).
func (v *Variant) HasCapture(p *Position) bool {
	us := p.Side & 1
	own, opp, kings := p.Pieces[us], p.Pieces[us^1], p.Kings
	empty := Valid &^ (own | opp)
	ul, ur, dl, dr := jumpSources(own&^kings, opp, empty, &v.manCapMask[us])
	return ul|ur|dl|dr != 0 || own&kings != 0 && kingCanCapture(own&kings, opp, empty)
}

// kingCanCapture reports whether one of kings can capture.
func kingCanCapture(kings, opp, empty Bitboard) bool {
	// Per king and direction: the first piece on the ray must be an enemy
	// with a free square right behind it.
	for ; kings != 0; kings &= kings - 1 {
		k := kings.First()
		for d := UpLeft; d <= DownRight; d++ {
			occupied := ray[d][k] &^ empty
			if occupied == 0 {
				continue
			}
			x := firstOn(d, occupied)
			if opp.Has(x) && x.Bit().Shift(d)&empty != 0 {
				return true
			}
		}
	}
	return false
}

// appendQuiet appends the non-capturing moves of the side us, whose men
// and kings are given.
func appendQuiet(us Color, men, kings, empty Bitboard, buf []Move) []Move {
	buf = appendManSteps(us, men, empty, buf)
	for ; kings != 0; kings &= kings - 1 {
		from := kings.First()
		for d := UpLeft; d <= DownRight; d++ {
			for t := kingSlide(from, d, empty); t != 0; t &= t - 1 {
				buf = append(buf, NewMove(from, t.First(), 0, false))
			}
		}
	}
	return buf
}

// appendManSteps appends the one-step moves of the men of side us.
func appendManSteps(us Color, men, empty Bitboard, buf []Move) []Move {
	// One step forward; the shift tells where each move came from.
	if us == White {
		buf = appendSteps(buf, (men>>5)&empty, 5, Row0)
		return appendSteps(buf, (men>>4)&empty, 4, Row0)
	}
	buf = appendSteps(buf, (men<<4)&empty, -4, Row7)
	return appendSteps(buf, (men<<5)&empty, -5, Row7)
}

// appendSteps appends the moves of men onto the squares of to, each coming
// from delta bits further on; those onto promo promote.
func appendSteps(buf []Move, to Bitboard, delta int, promo Bitboard) []Move {
	// A move onto square t from t+delta packs as t<<48 | (t+delta)<<40:
	// one multiplication puts t in both fields, an addition adjusts from
	// (t+delta is a square, so nothing borrows across the fields).
	const both = 1<<moveToShift | 1<<moveFromShift
	base := Move(delta) << moveFromShift
	for t := to &^ promo; t != 0; t &= t - 1 {
		buf = append(buf, Move(t.First())*both+base)
	}
	for t := to & promo; t != 0; t &= t - 1 {
		buf = append(buf, Move(t.First())*both+base|movePromotes)
	}
	return buf
}

// kingSlide returns the free squares a king on s reaches in direction d.
func kingSlide(s Square, d Direction, empty Bitboard) Bitboard {
	r := ray[d][s]
	if blocked := r &^ empty; blocked != 0 {
		b := firstOn(d, blocked)
		r &^= ray[d][b] | b.Bit()
	}
	return r
}

// countManSteps returns the number of one-step moves of the men of side us.
func countManSteps(us Color, men, empty Bitboard) int {
	// The two directions' moves go into one word for a single population
	// count: counted by their start squares, a man stepping up-left stands
	// on bits 5-34 and one stepping up-right on bits 4-34 (white); a black
	// man steps from bits 0-30 and 0-29.
	if us == White {
		return bits.OnesCount64(uint64(men&(empty<<5)>>5 | men&(empty<<4)>>4<<30))
	}
	return bits.OnesCount64(uint64(men&(empty>>4) | men&(empty>>5)<<31))
}

// countKingSlides returns the number of non-capturing moves of kings.
func countKingSlides(kings, empty Bitboard) int {
	// Flood every king at once, one direction at a time: two kings on one
	// line block each other, so no square is counted twice for a direction.
	var n int
	for d := UpLeft; d <= DownRight; d++ {
		for f := kings.Shift(d) & empty; f != 0; f = f.Shift(d) & empty {
			n += f.Count()
		}
	}
	return n
}

// ManCanStep reports whether a man of side c can step forward onto an
// empty square (whoever is to move): whether c can make a man move that
// restarts a move-count rule.
func ManCanStep(p *Position, c Color) bool {
	return countManSteps(c, p.Men(c), Valid&^(p.Pieces[White]|p.Pieces[Black])) > 0
}

// CrownPlies returns the fewest plies side c needs to crown a man if
// nothing stands in its way: two a row to go (c's moves and the
// opponent's between them), or -1 when c has no man. A lower bound: it
// looks at no blocker.
func CrownPlies(p *Position, c Color) int {
	men := p.Men(c)
	if men == 0 {
		return -1
	}
	rows := 7
	for b := men; b != 0; b &= b - 1 {
		r := Row(b.First())
		if c == Black {
			r = 7 - r
		}
		rows = min(rows, r)
	}
	return 2 * rows
}

// HasStep reports whether the side to move has a non-capturing move: a
// man stepping forward or a king stepping (and so able to slide) onto an
// adjacent empty square. Quiescence asks it, after HasCapture said no, to
// tell a lost position (no move at all) without generating moves.
func HasStep(p *Position) bool {
	us := p.Side & 1
	own := p.Pieces[us]
	empty := Valid &^ (own | p.Pieces[us^1])
	men, kings := own&^p.Kings, own&p.Kings
	if us == White {
		if men&(empty<<5|empty<<4) != 0 { // white men move to lower bits
			return true
		}
	} else if men&(empty>>4|empty>>5) != 0 {
		return true
	}
	return kings&(empty<<5|empty<<4|empty>>4|empty>>5) != 0
}

// IsLegal reports whether m is one of the legal moves of p, exactly as
// Generate lists it (promotion flag included).
func (v *Variant) IsLegal(p *Position, m Move) bool {
	var buf [MaxMoves]Move
	for _, l := range v.Generate(p, buf[:0]) {
		if l == m {
			return true
		}
	}
	return false
}

// LegalPrefix returns the longest prefix of moves (a line played from p,
// such as a search's principal variation) in which every move is legal
// (IsLegal) in the position the moves before it reach: moves itself when
// the whole line is legal, cut before its first illegal move otherwise.
// The result shares moves' array; p is not changed.
func (v *Variant) LegalPrefix(p *Position, moves []Move) []Move {
	q := *p
	for i, m := range moves {
		if !v.IsLegal(&q, m) {
			return moves[:i]
		}
		q = q.Play(m)
	}
	return moves
}
