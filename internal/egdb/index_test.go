package egdb

import (
	"testing"

	"github.com/riodraughts/rio/internal/movegen"
)

// Every index decodes to a legal placement of the slice and encodes back
// to itself; the count equals a brute-force count of placements.
func TestIndexRoundTrip(t *testing.T) {
	for _, m := range []Material{{1, 0, 1, 0}, {2, 1, 0, 1}, {0, 2, 0, 1}, {1, 1, 1, 1}, {0, 1, 0, 1}, {3, 0, 1, 0}} {
		x := NewIndexer(m)
		for i := range x.Size() {
			p := x.Position(i)
			if got := MaterialOf(&p); got != m {
				t.Fatalf("%v: index %d decodes to material %v", m, i, got)
			}
			if p.Pieces[0]&p.Pieces[1] != 0 || p.Men(movegen.White)&movegen.Row0 != 0 || p.Men(movegen.Black)&movegen.Row7 != 0 {
				t.Fatalf("%v: index %d decodes to an illegal placement", m, i)
			}
			if j := x.Index(&p); j != i {
				t.Fatalf("%v: index %d decodes and encodes to %d", m, i, j)
			}
		}
		if want := bruteCount(m); x.Size() != want {
			t.Errorf("%v: %d indices, %d placements", m, x.Size(), want)
		}
	}
}

// bruteCount counts the placements of m by enumerating squares.
func bruteCount(m Material) int64 {
	var count func(kinds []int, used uint32) int64
	// kinds: 0 white man, 1 black man, 2 white king, 3 black king; the
	// pieces of one kind are placed in increasing square order.
	count = func(kinds []int, used uint32) int64 {
		if len(kinds) == 0 {
			return 1
		}
		return place(kinds, used, 0, count)
	}
	var kinds []int
	for range m.UsMen {
		kinds = append(kinds, 0)
	}
	for range m.ThemMen {
		kinds = append(kinds, 1)
	}
	for range m.UsKings {
		kinds = append(kinds, 2)
	}
	for range m.ThemKings {
		kinds = append(kinds, 3)
	}
	return count(kinds, 0)
}

func place(kinds []int, used uint32, from int, count func([]int, uint32) int64) int64 {
	var n int64
	allowed := ^uint32(0)
	switch kinds[0] {
	case 0:
		allowed = whiteMenSquares
	case 1:
		allowed = blackMenSquares
	}
	for s := from; s < 32; s++ {
		bit := uint32(1) << s
		if used&bit != 0 || allowed&bit == 0 {
			continue
		}
		if len(kinds) > 1 && kinds[1] == kinds[0] {
			n += place(kinds[1:], used|bit, s+1, count)
		} else {
			n += count(kinds[1:], used|bit)
		}
	}
	return n
}

// TestWalk: walking a slice from any start gives the positions Position
// decodes, index by index: whole slices of up to 3 pieces (4 without
// -short), windows of the others up to 6.
func TestWalk(t *testing.T) {
	whole := 3
	if !testing.Short() {
		whole = 4
	}
	for _, m := range Slices(MaxPieces) {
		x := NewIndexer(m)
		starts, n := []int64{0, x.Size() / 3, x.Size() - 1}, int64(2000)
		if m.Pieces() == 6 {
			n = 300
		}
		if m.Pieces() <= whole {
			starts, n = []int64{0}, x.Size()
		}
		for _, from := range starts {
			var w walker
			w.seek(x, from)
			for i := from; i < min(from+n, x.Size()); i++ {
				if got, want := w.position(), x.Position(i); got != want {
					t.Fatalf("%v: walked to %d from %d: %+v, want %+v", m, i, from, got, want)
				}
				w.next()
			}
		}
	}
}

// TestComboWraps: stepping past the last subset of all 32 squares (where
// Gosper's hack carries past bit 31) wraps to the first.
func TestComboWraps(t *testing.T) {
	for k := 1; k <= 4; k++ {
		var c combo
		c.seek(^uint32(0), k, binom[32][k]-1)
		if c.next() {
			t.Errorf("k=%d: stepped past the last subset to ranks %#x", k, c.ranks)
		}
		if c.ranks != 1<<k-1 {
			t.Errorf("k=%d: wrapped to ranks %#x, want the first subset", k, c.ranks)
		}
	}
}

// TestPack: a packed position reads back as the position.
func TestPack(t *testing.T) {
	for _, m := range Slices(packPieces) {
		x := NewIndexer(m)
		packed := &side{x: x, material: m, packed: make([]uint32, 1)}
		decoded := &side{x: x, material: m}
		for i := int64(0); i < x.Size(); i += max(x.Size()/500, 1) {
			p := x.Position(i)
			packed.packed[0] = pack(&p)
			wm, wk, bm, bk := packed.sets(0)
			dwm, dwk, dbm, dbk := decoded.sets(i)
			if wm != dwm || wk != dwk || bm != dbm || bk != dbk {
				t.Fatalf("%v position %d: packed %x %x %x %x, want %x %x %x %x", m, i, wm, wk, bm, bk, dwm, dwk, dbm, dbk)
			}
		}
	}
}
