package movegen

// MaxMoves is a capacity for move buffers that no legal position is known
// to exceed; generation still appends correctly past it (allocating).
const MaxMoves = 256

// Generate appends the legal moves of p to buf[:0] and returns the result.
// Captures are compulsory: when one exists only captures are listed,
// filtered by the variant's precedence rule, each (from, to, captured set)
// once.
func (v *Variant) Generate(p *Position, buf []Move) []Move {
	buf = buf[:0]
	us := p.Side
	opp, empty := p.Pieces[us^1], p.Empty()
	ul, ur, dl, dr := jumpSources(p.Pieces[us]&^p.Kings, opp, empty, &v.manCapMask[us])
	jumpers := ul | ur | dl | dr
	if p.Kings&p.Pieces[us] == 0 {
		switch {
		case jumpers == 0:
			return appendQuiet(p, buf)
		case v.simpleJumps(p, ul, ur, dl, dr, opp, empty):
			return v.appendSimple(p, ul, ur, dl, dr, opp, empty, buf)
		}
		return v.appendCaptures(p, [4]Bitboard{ul, ur, dl, dr}, buf)
	}
	if jumpers != 0 || kingCanCapture(p) {
		return v.appendCaptures(p, [4]Bitboard{ul, ur, dl, dr}, buf)
	}
	return appendQuiet(p, buf)
}

// CountMoves returns len(Generate(p)), counting instead of listing where it
// can (bulk counting at perft's last ply); scratch is used where it cannot.
func (v *Variant) CountMoves(p *Position, scratch []Move) int {
	us := p.Side
	opp, empty := p.Pieces[us^1], p.Empty()
	ul, ur, dl, dr := jumpSources(p.Pieces[us]&^p.Kings, opp, empty, &v.manCapMask[us])
	jumpers := ul | ur | dl | dr
	if p.Kings&p.Pieces[us] == 0 {
		switch {
		case jumpers == 0:
			return countQuiet(p)
		case v.simpleJumps(p, ul, ur, dl, dr, opp, empty):
			return v.countSimple(p, ul, ur, dl, dr, opp, empty)
		}
		return len(v.appendCaptures(p, [4]Bitboard{ul, ur, dl, dr}, scratch[:0]))
	}
	if jumpers != 0 || kingCanCapture(p) {
		return len(v.appendCaptures(p, [4]Bitboard{ul, ur, dl, dr}, scratch[:0]))
	}
	return countQuiet(p)
}

// HasCapture reports whether the side to move has a capture (and so must
// capture).
func (v *Variant) HasCapture(p *Position) bool {
	us := p.Side
	opp := p.Pieces[us.Other()]
	empty := p.Empty()
	men := p.Men(us)
	for _, d := range v.manCapDirs[us] {
		if shift(shift(men, d)&opp, d)&empty != 0 {
			return true
		}
	}
	return kingCanCapture(p)
}

// kingCanCapture reports whether a king of the side to move can capture.
func kingCanCapture(p *Position) bool {
	kings := p.KingsOf(p.Side)
	if kings == 0 {
		return false
	}
	opp := p.Pieces[p.Side.Other()]
	empty := p.Empty()
	for d := UpLeft; d <= DownRight; d++ {
		// Every square a king reaches along free squares in direction d,
		// then the step over an enemy piece onto a free square.
		reach, f := kings, kings
		for f != 0 {
			f = shift(f, d) & empty
			reach |= f
		}
		if shift(shift(reach, d)&opp, d)&empty != 0 {
			return true
		}
	}
	return false
}

// appendQuiet appends the non-capturing moves of p.
func appendQuiet(p *Position, buf []Move) []Move {
	us := p.Side
	empty := p.Empty()
	men := p.Men(us)
	promo := promotionRow(us)
	// Men: one step forward; the shift tells where each move came from.
	if us == White {
		for t := (men >> 5) & empty; t != 0; t &= t - 1 {
			to := t.First()
			buf = append(buf, NewMove(to+5, to, 0, promo.Has(to)))
		}
		for t := (men >> 4) & empty; t != 0; t &= t - 1 {
			to := t.First()
			buf = append(buf, NewMove(to+4, to, 0, promo.Has(to)))
		}
	} else {
		for t := (men << 4) & empty; t != 0; t &= t - 1 {
			to := t.First()
			buf = append(buf, NewMove(to-4, to, 0, promo.Has(to)))
		}
		for t := (men << 5) & empty; t != 0; t &= t - 1 {
			to := t.First()
			buf = append(buf, NewMove(to-5, to, 0, promo.Has(to)))
		}
	}
	for k := p.KingsOf(us); k != 0; k &= k - 1 {
		from := k.First()
		for d := UpLeft; d <= DownRight; d++ {
			for t := kingSlide(from, d, empty); t != 0; t &= t - 1 {
				buf = append(buf, NewMove(from, t.First(), 0, false))
			}
		}
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

// countQuiet returns the number of non-capturing moves of p.
func countQuiet(p *Position) int {
	us := p.Side
	empty := p.Empty()
	men := p.Men(us)
	var n int
	if us == White {
		n = ((men >> 5) & empty).Count() + ((men >> 4) & empty).Count()
	} else {
		n = ((men << 4) & empty).Count() + ((men << 5) & empty).Count()
	}
	kings := p.KingsOf(us)
	if kings == 0 {
		return n
	}
	// Flood every king at once, one direction at a time: two kings on one
	// line block each other, so no square is counted twice for a direction.
	for d := UpLeft; d <= DownRight; d++ {
		for f := shift(kings, d) & empty; f != 0; f = shift(f, d) & empty {
			n += f.Count()
		}
	}
	return n
}
