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
