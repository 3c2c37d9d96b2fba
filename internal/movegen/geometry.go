package movegen

// Row returns the board row of s: 0 is the top (rank 8), 7 the bottom.
func Row(s Square) int { return int(squareRow[s]) }

// File returns the file of s: 0 is a, 7 is h.
func File(s Square) int { return int(squareFile[s]) }

// SquareAt returns the playing square at board row row (0 is the top,
// rank 8) and file file (0 is a), the inverse of Row and File; ok is false
// for a light square or a row or file off the board.
func SquareAt(row, file int) (s Square, ok bool) {
	if row < 0 || row > 7 || file < 0 || file > 7 {
		return NoSquare, false
	}
	s = squareAt[row][file]
	return s, s != NoSquare
}

// KingReach returns the free squares a king on s reaches in one quiet move.
func KingReach(s Square, empty Bitboard) Bitboard {
	var b Bitboard
	for d := UpLeft; d <= DownRight; d++ {
		b |= kingSlide(s, d, empty)
	}
	return b
}

// MustAlgebraic returns the square named a1..h8; it panics on a light or
// bad square and is meant for tables built at start-up.
func MustAlgebraic(name string) Square {
	if len(name) == 2 {
		if s := algebraicSquare(name[0], name[1]); s != NoSquare {
			return s
		}
	}
	panic("movegen: not a playing square: " + name)
}

// LongDiagonal holds a1-h8 (STD 29-25-22-18-15-11-8-4), the portuguese rio.
var LongDiagonal = func() Bitboard {
	var b Bitboard
	for _, n := range []int{29, 25, 22, 18, 15, 11, 8, 4} {
		b |= stdSquare(n).Bit()
	}
	return b
}()
