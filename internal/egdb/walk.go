package egdb

import (
	"math/bits"

	"github.com/riodraughts/rio/internal/movegen"
)

// A slice is walked in index order by stepping each piece group to its
// next subset, rather than decoding every index afresh: the solver's
// forward pass looks at every position once, and decoding dominated it.

// ghostSquare[s] is the ghost-layout bit of dense square s.
var ghostSquare = func() (t [32]movegen.Bitboard) {
	for s := range t {
		t[s] = ghost(1 << s)
	}
	return t
}()

// combo is one piece group of a walk: a k-subset of the squares of within,
// stepped in rank order. In rank space (bit r: the r-th square of within)
// rank order is numeric order, so the next subset is the next larger
// number with k bits (Gosper's hack).
type combo struct {
	sq    [32]movegen.Bitboard // sq[r]: the r-th square of within
	n, k  int
	ranks uint32
	set   movegen.Bitboard
}

// seek makes c the subset of within numbered idx.
func (c *combo) seek(within uint32, k int, idx int64) {
	c.n, c.k = 0, k
	if k == 0 {
		c.ranks, c.set = 0, 0
		return
	}
	for w := within; w != 0; w &= w - 1 {
		c.sq[c.n] = ghostSquare[bits.TrailingZeros32(w)]
		c.n++
	}
	c.ranks = compress(unrankSet(idx, k, within), within)
	c.deposit()
}

// next steps to the next subset; at the last one it wraps to the first
// and returns false.
func (c *combo) next() bool {
	if c.k == 0 {
		return false
	}
	x := uint64(c.ranks) // 64 bits: x+low may carry past bit 31
	low := x & -x
	r := x + low
	x = (r^x)>>2/low | r
	ok := x < 1<<c.n
	if !ok {
		x = 1<<c.k - 1
	}
	c.ranks = uint32(x)
	c.deposit()
	return ok
}

func (c *combo) deposit() {
	var b movegen.Bitboard
	for x := c.ranks; x != 0; x &= x - 1 {
		b |= c.sq[bits.TrailingZeros32(x)]
	}
	c.set = b
}

// compress returns the ranks within within of the squares of set.
func compress(set, within uint32) uint32 {
	var x uint32
	for s := set; s != 0; s &= s - 1 {
		x |= 1 << bits.OnesCount32(within&(s&-s-1))
	}
	return x
}

// walker walks the positions of one slice in index order.
type walker struct {
	x                 *Indexer
	bm, wm, wk, bk    combo  // black men, white men, white kings, black kings
	emptyMen, emptyWK uint32 // squares free of men; and of white kings (dense)
}

// seek makes the walker stand on position i.
func (w *walker) seek(x *Indexer, i int64) {
	w.x = x
	m := x.M
	i, kb := x.divB.divmod(i)
	men, kw := x.divW.divmod(i)
	b := x.blackMenSet(men)
	w.bm.seek(blackMenSquares, m.ThemMen, b)
	bm := dense(w.bm.set)
	w.wm.seek(whiteMenSquares&^bm, m.UsMen, men-x.menOffset[b])
	w.emptyMen = ^(dense(w.wm.set) | bm)
	w.wk.seek(w.emptyMen, m.UsKings, kw)
	w.emptyWK = w.emptyMen &^ dense(w.wk.set)
	w.bk.seek(w.emptyWK, m.ThemKings, kb)
}

// next steps to the next position (after the last, to the first).
func (w *walker) next() {
	if w.bk.next() {
		return
	}
	if !w.wk.next() {
		if !w.wm.next() {
			w.bm.next()
			w.wm.seek(whiteMenSquares&^dense(w.bm.set), w.x.M.UsMen, 0)
		}
		w.emptyMen = ^(dense(w.wm.set) | dense(w.bm.set))
		w.wk.seek(w.emptyMen, w.x.M.UsKings, 0)
	}
	w.emptyWK = w.emptyMen &^ dense(w.wk.set)
	w.bk.seek(w.emptyWK, w.x.M.ThemKings, 0)
}

// position returns the position the walker stands on (White to move).
func (w *walker) position() movegen.Position {
	return movegen.Position{
		Pieces: [2]movegen.Bitboard{w.wm.set | w.wk.set, w.bm.set | w.bk.set},
		Kings:  w.wk.set | w.bk.set,
		Side:   movegen.White,
	}
}
