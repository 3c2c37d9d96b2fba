package movegen

// Most positions with a capture offer only single jumps by men that cannot
// go on. Those are found, counted and listed here for all men at once with
// shifts; everything else goes to the capture search (capture.go).

// jumpSources returns, per direction (up-left, up-right, down-left,
// down-right), the squares of src from which a man jumps over a piece of
// over onto a square of empty, keeping only the directions whose mask is
// Valid. In the ghost layout a step that stays on valid squares is always
// the true diagonal neighbour, so plain shifts are exact.
func jumpSources(src, over, empty Bitboard, mask *[4]Bitboard) (ul, ur, dl, dr Bitboard) {
	ul = src & (over << 5) & (empty << 10) & mask[UpLeft]
	ur = src & (over << 4) & (empty << 8) & mask[UpRight]
	dl = src & (over >> 4) & (empty >> 8) & mask[DownLeft]
	dr = src & (over >> 5) & (empty >> 10) & mask[DownRight]
	return
}

// simpleJumps reports whether the men jumping from ul, ur, dl and dr
// (per direction) all end their move on landing. A further jump from a
// landing square is judged on the board as it is: the piece just taken
// only blocks the way back, which the man's own start square (still
// occupied here) blocks as well, and no other square changes for that
// jump. A man landing where it would go on as a king is not simple.
func (v *Variant) simpleJumps(p *Position, ul, ur, dl, dr, opp, empty Bitboard) bool {
	land := ul>>10 | ur>>8 | dl<<8 | dr<<10
	if v.LastRow == PromotesAndContinues && land&promotionRow(p.Side) != 0 {
		return false
	}
	a, b, c, d := jumpSources(land, opp, empty, &v.manCapMask[p.Side])
	return a|b|c|d == 0
}

// countSimple counts the single-jump captures of men (simpleJumps holds and
// the side to move has no king), applying the portuguese quality rule.
func (v *Variant) countSimple(p *Position, ul, ur, dl, dr, opp, empty Bitboard) int {
	if v.Precedence == MostPiecesThenKings {
		if kings := opp & p.Kings; kings != 0 {
			a, b, c, d := jumpSources(ul|ur|dl|dr, kings, empty, &v.manCapMask[p.Side])
			if a|b|c|d != 0 {
				ul, ur, dl, dr = a, b, c, d
			}
		}
	}
	return ul.Count() + ur.Count() + dl.Count() + dr.Count()
}

// appendSimple lists the captures countSimple counts.
func (v *Variant) appendSimple(p *Position, ul, ur, dl, dr, opp, empty Bitboard, buf []Move) []Move {
	if v.Precedence == MostPiecesThenKings {
		if kings := opp & p.Kings; kings != 0 {
			a, b, c, d := jumpSources(ul|ur|dl|dr, kings, empty, &v.manCapMask[p.Side])
			if a|b|c|d != 0 {
				ul, ur, dl, dr = a, b, c, d
			}
		}
	}
	promo := promotionRow(p.Side)
	for dir, from := range [4]Bitboard{ul, ur, dl, dr} {
		for ; from != 0; from &= from - 1 {
			s := from.First()
			land := landSquare[dir][s]
			buf = append(buf, NewMove(s, land, jumpOver[dir][s], promo.Has(land)))
		}
	}
	return buf
}
