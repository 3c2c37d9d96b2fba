package movegen

import "math/bits"

// Most positions with a capture offer only single jumps by men that cannot
// go on. Those are found, counted and listed here for all men at once with
// shifts; everything else goes to the capture search (capture.go).

// jumpSources returns, per direction (up-left, up-right, down-left,
// down-right), the squares of src from which a man jumps over a piece of
// over onto a square of empty, keeping only the directions whose mask is
// Valid. In the ghost layout a step that stays on valid squares is always
// the true diagonal neighbour, so plain shifts are exact.
func jumpSources(src, over, empty Bitboard, mask *[4]Bitboard) (ul, ur, dl, dr Bitboard) {
	ul, ur, dl, dr = jumpFrom(over, empty, mask)
	return src & ul, src & ur, src & dl, src & dr
}

// jumpFrom returns, per direction, every square from which a man would
// jump over a piece of over onto a square of empty (see jumpSources).
// Computed once per position it answers both "which men jump" and "can a
// man go on from where it lands".
func jumpFrom(over, empty Bitboard, mask *[4]Bitboard) (ul, ur, dl, dr Bitboard) {
	ul = (over << 5) & (empty << 10) & mask[UpLeft]
	ur = (over << 4) & (empty << 8) & mask[UpRight]
	dl = (over >> 4) & (empty >> 8) & mask[DownLeft]
	dr = (over >> 5) & (empty >> 10) & mask[DownRight]
	return
}

// goesOn reports whether a man jumping from ul, ur, dl or dr (per
// direction) can go on capturing after the jump; jumpers is the union of
// jumpFrom's four sets for the position. A further jump from a landing
// square is judged on the board as it is: the piece just taken only blocks
// the way back, which the man's own start square (still occupied here)
// blocks as well, and no other square changes for that jump. A man that
// lands where it would go on as a king counts as going on.
func (v *Variant) goesOn(side Color, ul, ur, dl, dr, jumpers Bitboard) bool {
	land := ul>>10 | ur>>8 | dl<<8 | dr<<10
	if v.LastRow == PromotesAndContinues {
		jumpers |= PromotionRow(side)
	}
	return land&jumpers != 0
}

// preferKings applies the portuguese quality rule to single jumps: when
// some of them take a king, only those count.
func (v *Variant) preferKings(side Color, ul, ur, dl, dr, oppKings, empty Bitboard) (Bitboard, Bitboard, Bitboard, Bitboard) {
	if v.Precedence == MostPiecesThenKings && oppKings != 0 {
		a, b, c, d := jumpSources(ul|ur|dl|dr, oppKings, empty, &v.manCapMask[side&1])
		if a|b|c|d != 0 {
			return a, b, c, d
		}
	}
	return ul, ur, dl, dr
}

// countJumps returns the number of single jumps by the men jumping from
// ul, ur, dl and dr (per direction).
func countJumps(ul, ur, dl, dr Bitboard) int {
	// Two population counts instead of four: a man jumping up-left or
	// up-right stands on bits 9-34, so ul>>9 fits in 26 bits and ur>>9
	// above it; one jumping down stands on bits 0-26, 27 bits each.
	return bits.OnesCount64(uint64(ul>>9|ur>>9<<26)) + bits.OnesCount64(uint64(dl|dr<<27))
}

// appendSimple appends the single-jump captures of the men jumping from
// ul, ur, dl and dr (per direction), applying the portuguese quality rule.
func (v *Variant) appendSimple(side Color, ul, ur, dl, dr, oppKings, empty Bitboard, buf []Move) []Move {
	ul, ur, dl, dr = v.preferKings(side, ul, ur, dl, dr, oppKings, empty)
	promo := PromotionRow(side)
	buf = appendJumps(buf, ul, -5, promo)
	buf = appendJumps(buf, ur, -4, promo)
	buf = appendJumps(buf, dl, 4, promo)
	return appendJumps(buf, dr, 5, promo)
}

// appendJumps appends the single jumps of the men on from, each over the
// square delta bits on and onto the one 2*delta bits on; those landing on
// promo promote.
func appendJumps(buf []Move, from Bitboard, delta int, promo Bitboard) []Move {
	for ; from != 0; from &= from - 1 {
		s := int(from.First())
		to := s + 2*delta
		buf = append(buf, Move(1)<<(s+delta)|Move(s)<<moveFromShift|Move(to)<<moveToShift|Move(promo>>to&1)<<56)
	}
	return buf
}
