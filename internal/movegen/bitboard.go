package movegen

import "math/bits"

// Bitboard is a set of playing squares in the 35-bit ghost layout described
// in the package documentation. Bits 8, 17, 26 and 35-63 are never set in a
// valid bitboard.
type Bitboard uint64

// Square is a bit index 0..34 of the ghost layout (never a ghost bit). It is
// not a square number: numbers depend on the variant (see Numbering).
type Square uint8

// NoSquare marks the absence of a square in the geometry tables.
const NoSquare Square = 0xFF

// Valid holds the 32 playing squares.
const Valid Bitboard = (1<<35 - 1) &^ (1<<8 | 1<<17 | 1<<26)

// Row masks: row 0 is the top of the board (rank 8), row 7 the bottom.
const (
	Row0 Bitboard = 0xF
	Row7 Bitboard = 0xF << 31
)

// Bit returns the bitboard holding only s.
func (s Square) Bit() Bitboard { return 1 << s }

// Has reports whether s is in b.
func (b Bitboard) Has(s Square) bool { return b&(1<<s) != 0 }

// Count returns the number of squares in b.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// First returns the lowest square of a non-empty b.
func (b Bitboard) First() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// Flip turns the board 180 degrees (bit b goes to 34-b).
func (b Bitboard) Flip() Bitboard { return Bitboard(bits.Reverse64(uint64(b)) >> 29) }

// Direction is one of the four diagonal directions. Opposite directions add
// up to 3.
type Direction uint8

const (
	UpLeft    Direction = iota // shift -5
	UpRight                    // shift -4
	DownLeft                   // shift +4
	DownRight                  // shift +5
)

func (d Direction) opposite() Direction { return 3 - d }

// positive reports whether d goes towards higher bit indexes.
func (d Direction) positive() bool { return d >= DownLeft }

// squareRow and squareCol give the board row (0 = rank 8) and the file
// (0 = a) of each square.
var (
	squareRow  [35]int8
	squareFile [35]int8
	// squareAt maps a board row and file to a square, or NoSquare for a
	// light square.
	squareAt [8][8]Square
	// ray[d][s] holds every square from s (exclusive) to the board edge in
	// direction d.
	ray [4][35]Bitboard
)

// stdSquare returns the square of STD number n (1..32).
func stdSquare(n int) Square {
	i := n - 1
	r, c := i/4, i%4
	return Square(4*r + c + r/2)
}

func init() {
	for r := range squareAt {
		for f := range squareAt[r] {
			squareAt[r][f] = NoSquare
		}
	}
	for n := 1; n <= 32; n++ {
		s := stdSquare(n)
		r := (n - 1) / 4
		c := (n - 1) % 4
		f := 2 * c
		if r%2 == 0 {
			f++
		}
		squareRow[s], squareFile[s] = int8(r), int8(f)
		squareAt[r][f] = s
	}
	dr := [4]int{-1, -1, 1, 1}
	df := [4]int{-1, 1, -1, 1}
	for s := Square(0); s < 35; s++ {
		if !Valid.Has(s) {
			continue
		}
		for d := range 4 {
			r, f := int(squareRow[s]), int(squareFile[s])
			for {
				r, f = r+dr[d], f+df[d]
				if r < 0 || r > 7 || f < 0 || f > 7 {
					break
				}
				ray[d][s] |= squareAt[r][f].Bit()
			}
		}
	}
}

// firstOn returns the square of b nearest to the origin of a ray in
// direction d; b must be non-empty and lie on one ray.
func firstOn(d Direction, b Bitboard) Square {
	if d.positive() {
		return Square(bits.TrailingZeros64(uint64(b)))
	}
	return Square(63 - bits.LeadingZeros64(uint64(b)))
}

// Shift moves every square of b one step in direction d; squares that leave
// the board are dropped.
func (b Bitboard) Shift(d Direction) Bitboard {
	switch d {
	case UpLeft:
		return (b >> 5) & Valid
	case UpRight:
		return (b >> 4) & Valid
	case DownLeft:
		return (b << 4) & Valid
	default:
		return (b << 5) & Valid
	}
}
