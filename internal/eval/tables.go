package eval

import "github.com/riodraughts/rio/internal/movegen"

// Geometry tables, all for a man moving up the board (White); Black is
// scored on the flipped board.
var (
	// rowsToGo[sq] is the number of rows a man on sq still has to cross.
	rowsToGo [64]int
	// cone[sq] holds every square a man on sq could pass through, and the
	// squares from which an enemy man could block or take it: the widening
	// triangle ahead of it, one file wider on each side.
	cone [64]movegen.Bitboard
	// advancedBit[k] holds the squares whose rows advanced (7 - rowsToGo)
	// have bit k set, so that the rows advanced of a set of men are three
	// counts: sum over k of count(men & advancedBit[k]) << k.
	advancedBit [3]movegen.Bitboard
	// leftHalf holds files a-d.
	leftHalf movegen.Bitboard
	// golden holds the back-row squares c1 and e1 that guard the most.
	golden movegen.Bitboard
	// runawayRows holds rows 1-4 (from the top), where a free man may be a
	// runaway.
	runawayRows movegen.Bitboard = 0xF<<4 | 0xF<<9 | 0xF<<13 | 0xF<<18
	// longDiagonal is a1-h8.
	longDiagonal = movegen.LongDiagonal
)

// manTable returns, per square, the advancement and centre bonus of a man
// under weights w.
func manTable(w *Weights) [64]int {
	var t [64]int
	for n := 1; n <= 32; n++ {
		sq := movegen.STD.Square(n)
		row, file := movegen.Row(sq), movegen.File(sq)
		t[sq] = w.Advance[7-row]
		if file >= 2 && file <= 5 && row >= 2 && row <= 5 {
			t[sq] += w.Centre
		}
	}
	return t
}

func init() {
	for n := 1; n <= 32; n++ {
		sq := movegen.STD.Square(n)
		row, file := movegen.Row(sq), movegen.File(sq)
		rowsToGo[sq] = row
		for k := range advancedBit {
			if (7-row)>>k&1 != 0 {
				advancedBit[k] |= sq.Bit()
			}
		}
		if file <= 3 {
			leftHalf |= sq.Bit()
		}
		for n2 := 1; n2 <= 32; n2++ {
			s2 := movegen.STD.Square(n2)
			r2, f2 := movegen.Row(s2), movegen.File(s2)
			dr := row - r2
			if dr > 0 && abs(f2-file) <= dr+1 {
				cone[sq] |= s2.Bit()
			}
		}
	}
	for _, name := range []string{"c1", "e1"} {
		golden |= movegen.MustAlgebraic(name).Bit()
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
