package movegen

// Numbering maps the square numbers 1..32 a variant's players use to the
// internal board, and back.
type Numbering struct {
	Name string
	// Algebraic reports whether players of the variants using this numbering
	// also name squares a1..h8 (White at the bottom, a1 a playing square).
	Algebraic bool
	toSquare  [33]Square
	toNumber  [35]int8
}

var (
	// STD is the FMJD numbering of brazilian and russian: 1 = b8, left to
	// right, row by row downward; 29 = a1, 32 = g1.
	STD = newNumbering("STD", true, func(n int) int { return n })
	// FPD is the portuguese numbering on the mirrored board: 1 = h1 (White's
	// bottom-right corner), right to left along each row, rows upward; 32 =
	// a8. Mirroring left-right maps it onto the STD geometry: portuguese
	// square p is STD square 4*(7-(p-1)/4) + (p-1)%4 + 1.
	FPD = newNumbering("FPD", false, func(p int) int { return 4*(7-(p-1)/4) + (p-1)%4 + 1 })
)

func newNumbering(name string, algebraic bool, toSTD func(int) int) *Numbering {
	nb := &Numbering{Name: name, Algebraic: algebraic}
	for i := range nb.toNumber {
		nb.toNumber[i] = -1
	}
	nb.toSquare[0] = NoSquare
	for n := 1; n <= 32; n++ {
		s := stdSquare(toSTD(n))
		nb.toSquare[n] = s
		nb.toNumber[s] = int8(n)
	}
	return nb
}

// Square returns the square numbered n, or NoSquare when n is not 1..32.
func (nb *Numbering) Square(n int) Square {
	if n < 1 || n > 32 {
		return NoSquare
	}
	return nb.toSquare[n]
}

// Number returns the number of square s.
func (nb *Numbering) Number(s Square) int { return int(nb.toNumber[s]) }

// AlgebraicName returns the a1..h8 name of s on the STD board.
func AlgebraicName(s Square) string {
	return string([]byte{'a' + byte(squareFile[s]), '8' - byte(squareRow[s])})
}

// algebraicSquare returns the square named by a file letter and a rank
// digit, or NoSquare for a light square or a name off the board.
func algebraicSquare(file, rank byte) Square {
	if file >= 'A' && file <= 'H' {
		file += 'a' - 'A'
	}
	if file < 'a' || file > 'h' || rank < '1' || rank > '8' {
		return NoSquare
	}
	return squareAt['8'-rank][file-'a']
}
