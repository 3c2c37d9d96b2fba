package egdb

import (
	"fmt"
	"math/bits"

	"github.com/riodraughts/rio/internal/movegen"
)

// Material names a slice: the kings and men of the side to move (us) and
// of the other side (them).
type Material struct {
	UsKings, UsMen, ThemKings, ThemMen int
}

// Pieces returns the number of pieces on the board.
func (m Material) Pieces() int { return m.UsKings + m.UsMen + m.ThemKings + m.ThemMen }

// Men returns the number of men on the board.
func (m Material) Men() int { return m.UsMen + m.ThemMen }

// Swap returns the slice with the sides exchanged: where a quiet move from
// m leads, seen from the new side to move.
func (m Material) Swap() Material {
	return Material{m.ThemKings, m.ThemMen, m.UsKings, m.UsMen}
}

// String is the material as in a file name: "K2M1-K1M0".
func (m Material) String() string {
	return fmt.Sprintf("K%dM%d-K%dM%d", m.UsKings, m.UsMen, m.ThemKings, m.ThemMen)
}

// MaterialOf returns the slice of p, seen from the side to move.
func MaterialOf(p *movegen.Position) Material {
	us, them := p.Side, p.Side.Other()
	return Material{
		UsKings: p.KingsOf(us).Count(), UsMen: p.Men(us).Count(),
		ThemKings: p.KingsOf(them).Count(), ThemMen: p.Men(them).Count(),
	}
}

// Dense squares: the 32 playing squares numbered 0-31 (4 per row, row 0 at
// the top, where white men promote), a compact form of movegen's 35-bit
// ghost layout for indexing.
const (
	whiteMenSquares uint32 = 0xFFFFFFF0 // not row 0: a white man there is a king
	blackMenSquares uint32 = 0x0FFFFFFF // not row 7
)

// dense packs a ghost-layout bitboard into 32 bits.
func dense(b movegen.Bitboard) uint32 {
	x := uint64(b)
	return uint32(x&0xFF | x>>9&0xFF<<8 | x>>18&0xFF<<16 | x>>27&0xFF<<24)
}

// ghost unpacks a dense board.
func ghost(d uint32) movegen.Bitboard {
	x := uint64(d)
	return movegen.Bitboard(x&0xFF | x>>8&0xFF<<9 | x>>16&0xFF<<18 | x>>24&0xFF<<27)
}

// binom[n][k] is n choose k.
var binom = func() (t [33][33]int64) {
	for n := range t {
		t[n][0] = 1
		for k := 1; k <= n; k++ {
			t[n][k] = t[n-1][k-1] + t[n-1][k]
		}
	}
	return t
}()

// rankSet returns the combinatorial number of the set of squares set
// among the squares of within (set must lie within within): the i-th
// lowest square of set, with rank r among within, adds binom[r][i+1].
func rankSet(set, within uint32) int64 {
	var idx int64
	i := 1
	for s := set; s != 0; s &= s - 1 {
		low := s & -s
		r := bits.OnesCount32(within & (low - 1))
		idx += binom[r][i]
		i++
	}
	return idx
}

// unrankSet is rankSet's inverse: the k squares of within numbered idx.
func unrankSet(idx int64, k int, within uint32) uint32 {
	var set uint32
	n := bits.OnesCount32(within)
	for i := k; i >= 1; i-- {
		// The largest rank r < n with binom[r][i] <= idx: from a table
		// for small groups, else by binary search (binom grows with r).
		var r int
		if i < len(topRank) {
			r = int(topRank[i][idx])
		} else {
			lo, hi := i-1, n-1
			for lo < hi {
				mid := (lo + hi + 1) / 2
				if binom[mid][i] <= idx {
					lo = mid
				} else {
					hi = mid - 1
				}
			}
			r = lo
		}
		idx -= binom[r][i]
		set |= nthBit(within, r)
		n = r
	}
	return set
}

// topRank[i][idx] is the largest r with binom[r][i] <= idx, for groups of
// up to 4 (idx < binom[32][i]; 41 KB in all).
var topRank = func() (t [5][]uint8) {
	for i := 1; i < len(t); i++ {
		t[i] = make([]uint8, binom[32][i])
		r := i - 1
		for idx := range t[i] {
			for r+1 <= 32 && binom[r+1][i] <= int64(idx) {
				r++
			}
			t[i][idx] = uint8(r)
		}
	}
	return t
}()

// nthBit returns the r-th lowest set bit of x (as a one-bit mask; r must
// be less than x's population count). Without branches, which the
// solver's random positions would mispredict: the byte that holds the bit
// is found by comparing the running per-byte counts with r all at once
// (SWAR), and a table finishes.
func nthBit(x uint32, r int) uint32 {
	c := x - x>>1&0x55555555
	c = c&0x33333333 + c>>2&0x33333333
	c = (c + c>>4) & 0x0F0F0F0F
	sums := c * 0x01010101 // byte k: the set bits in bytes 0 to k
	// High bit of byte k: sums_k > r (no borrow: sums_k <= 32 and r < 32,
	// callers pass ranks below x's population count).
	above := ((sums | 0x80808080) - uint32(r+1)*0x01010101) & 0x80808080
	k := 4 - bits.OnesCount32(above) // the bytes whose running sum is <= r
	sh := 8 * k
	before := int(sums << 8 >> sh & 0xFF)
	return 1 << sh << selectInByte[x>>sh&0xFF][(r-before)&7]
}

// selectInByte[b][r] is the position of the r-th lowest set bit of b.
var selectInByte = func() (t [256][8]uint8) {
	for b := range 256 {
		r := 0
		for i := range 8 {
			if b&(1<<i) != 0 {
				t[b][r] = uint8(i)
				r++
			}
		}
	}
	return t
}()

// Indexer numbers the positions of one slice (White to move).
type Indexer struct {
	M Material
	// menOffset[b] is the first men-placement number of the b-th black
	// men set: how many white men sets the earlier black sets allow.
	menOffset []int64
	kingsW    int64 // binom[free][white kings]
	kingsB    int64
	divW      divisor // by kingsW
	divB      divisor // by kingsB
	size      int64
}

// NewIndexer returns the indexer of slice m.
func NewIndexer(m Material) *Indexer {
	x := &Indexer{M: m}
	nb := binom[28][m.ThemMen]
	x.menOffset = make([]int64, nb+1)
	var total int64
	for b := int64(0); b < nb; b++ {
		x.menOffset[b] = total
		blackMen := unrankSet(b, m.ThemMen, blackMenSquares)
		total += binom[bits.OnesCount32(whiteMenSquares&^blackMen)][m.UsMen]
	}
	x.menOffset[nb] = total
	free := 32 - m.UsMen - m.ThemMen
	x.kingsW = binom[free][m.UsKings]
	x.kingsB = binom[free-m.UsKings][m.ThemKings]
	x.divW, x.divB = newDivisor(x.kingsW), newDivisor(x.kingsB)
	x.size = total * x.kingsW * x.kingsB
	return x
}

// Size returns the number of positions in the slice.
func (x *Indexer) Size() int64 { return x.size }

// Index returns the number of p, which must have White to move and the
// slice's material.
func (x *Indexer) Index(p *movegen.Position) int64 {
	return x.indexDense(denseGroups(p))
}

// denseGroups returns p's white men, white kings, black men and black
// kings as dense sets.
func denseGroups(p *movegen.Position) (wm, wk, bm, bk uint32) {
	return dense(p.Men(movegen.White)), dense(p.KingsOf(movegen.White)),
		dense(p.Men(movegen.Black)), dense(p.KingsOf(movegen.Black))
}

// indexDense is Index of the position with these dense sets of white men
// and kings and black men and kings.
func (x *Indexer) indexDense(wm, wk, bm, bk uint32) int64 {
	return x.kingsIndex(x.menIndex(wm, bm), wm, wk, bm, bk)
}

// menIndex is the number of the men's placement (white men wm, black men
// bm): the part of an index a king's move keeps.
func (x *Indexer) menIndex(wm, bm uint32) int64 {
	return x.menOffset[rankSet(bm, blackMenSquares)] + rankSet(wm, whiteMenSquares&^bm)
}

// kingsIndex is indexDense of the position whose men's placement is
// numbered men.
func (x *Indexer) kingsIndex(men int64, wm, wk, bm, bk uint32) int64 {
	empty := ^(wm | bm)
	return (men*x.kingsW+rankSet(wk, empty))*x.kingsB + rankSet(bk, empty&^wk)
}

// Position returns the position numbered i (White to move); i must be
// below Size.
func (x *Indexer) Position(i int64) movegen.Position {
	m := x.M
	i, kb := x.divB.divmod(i)
	men, kw := x.divW.divmod(i)
	b := x.blackMenSet(men)
	bm := unrankSet(b, m.ThemMen, blackMenSquares)
	wm := unrankSet(men-x.menOffset[b], m.UsMen, whiteMenSquares&^bm)
	empty := ^(wm | bm)
	wk := unrankSet(kw, m.UsKings, empty)
	bk := unrankSet(kb, m.ThemKings, empty&^wk)
	return movegen.Position{
		Pieces: [2]movegen.Bitboard{ghost(wm | wk), ghost(bm | bk)},
		Kings:  ghost(wk | bk),
		Side:   movegen.White,
	}
}

// blackMenSet returns the number of the black men set whose range of
// men placements holds men.
func (x *Indexer) blackMenSet(men int64) int64 {
	// The last offset <= men, by a binary search whose steps compile to
	// conditional moves (this is on the solver's path).
	lo, n := 0, len(x.menOffset)-1
	for n > 1 {
		half := n / 2
		if x.menOffset[lo+half] <= men {
			lo += half
		}
		n -= half
	}
	return int64(lo)
}

// divisor divides by a fixed positive number through a multiplication by
// its reciprocal: a 64-bit division takes tens of cycles, and decoding an
// index needs two.
type divisor struct {
	d   int64
	inv float64
}

func newDivisor(d int64) divisor { return divisor{d, 1 / float64(d)} }

// divmod returns i/d and i%d for 0 <= i < 2^52: the rounded quotient is
// off by at most one there, and the remainder's sign and size tell which
// way.
func (v divisor) divmod(i int64) (q, r int64) {
	q = int64(float64(i) * v.inv)
	r = i - q*v.d
	if r < 0 {
		q, r = q-1, r+v.d
	} else if r >= v.d {
		q, r = q+1, r-v.d
	}
	return q, r
}

// flip is movegen.Position.Flip without the hash, which tables do not use.
func flip(p *movegen.Position) movegen.Position {
	return movegen.Position{
		Pieces: [2]movegen.Bitboard{p.Pieces[movegen.Black].Flip(), p.Pieces[movegen.White].Flip()},
		Kings:  p.Kings.Flip(),
		Side:   p.Side.Other(),
	}
}
