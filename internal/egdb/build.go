package egdb

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/riodraughts/rio/internal/movegen"
	"golang.org/x/sync/errgroup"
)

// Options control a build.
type Options struct {
	// Threads is how many slice pairs are solved at once (at least 1). The
	// tables do not depend on it.
	Threads int
	// Store, when set, is asked for each pair before solving it (a table
	// it returns is used as is: resumable builds) and given each solved
	// table.
	Store Store
	// Progress, when set, is called after each solved or loaded slice with
	// the positions done so far and the total.
	Progress func(done, total int64)
}

// Store keeps tables between builds (a directory of files, see Dir).
type Store interface {
	// Load returns the stored table of m, nil if there is none, or an
	// error if one is there but unusable.
	Load(v *movegen.Variant, m Material) (*Table, error)
	Save(t *Table) error
}

// Slices returns every slice of up to pieces pieces with at least one
// piece a side, in build order: by pieces, then men, then material.
func Slices(pieces int) []Material {
	var ms []Material
	for n := 2; n <= pieces; n++ {
		for uk := 0; uk <= n; uk++ {
			for um := 0; uk+um <= n; um++ {
				for tk := 0; uk+um+tk <= n; tk++ {
					tm := n - uk - um - tk
					if uk+um == 0 || tk+tm == 0 || um > 28 || tm > 28 {
						continue
					}
					ms = append(ms, Material{uk, um, tk, tm})
				}
			}
		}
	}
	slices.SortStableFunc(ms, func(a, b Material) int {
		if a.Pieces() != b.Pieces() {
			return a.Pieces() - b.Pieces()
		}
		return a.Men() - b.Men()
	})
	return ms
}

// Build solves every slice of v with up to pieces pieces.
func Build(ctx context.Context, v *movegen.Variant, pieces int, opt Options) (*DB, error) {
	if pieces < 2 || pieces > MaxPieces {
		return nil, fmt.Errorf("egdb: %d pieces: tables have 2 to %d", pieces, MaxPieces)
	}
	db := newDB(v)
	db.Pieces = pieces
	all := Slices(pieces)
	var total, done int64
	for _, m := range all {
		total += NewIndexer(m).Size()
	}
	// Levels: slices with the same pieces and men depend only on smaller
	// levels; each level's pairs are solved in parallel.
	for start := 0; start < len(all); {
		end := start
		for end < len(all) && all[end].Pieces() == all[start].Pieces() && all[end].Men() == all[start].Men() {
			end++
		}
		var pairs [][]Material
		seen := map[Material]bool{}
		for _, m := range all[start:end] {
			if seen[m] {
				continue
			}
			seen[m], seen[m.Swap()] = true, true
			if m == m.Swap() {
				pairs = append(pairs, []Material{m})
			} else {
				pairs = append(pairs, []Material{m, m.Swap()})
			}
		}
		solved := make([][]*Table, len(pairs))
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(max(opt.Threads, 1))
		for k, pair := range pairs {
			g.Go(func() error {
				ts, err := db.pair(gctx, pair, opt.Store)
				if err != nil {
					return err
				}
				solved[k] = ts
				if opt.Progress != nil {
					var n int64
					for _, t := range ts {
						n += t.Size()
					}
					opt.Progress(atomic.AddInt64(&done, n), total)
				}
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			return nil, err
		}
		for _, ts := range solved {
			for _, t := range ts {
				db.tables[t.M] = t
			}
		}
		start = end
	}
	return db, nil
}

// pair returns the tables of a slice and its swapped partner: loaded from
// the store, or solved (and saved).
func (db *DB) pair(ctx context.Context, pair []Material, store Store) ([]*Table, error) {
	if store != nil {
		var ts []*Table
		for _, m := range pair {
			t, err := store.Load(db.Variant, m)
			if err != nil {
				return nil, err
			}
			if t == nil {
				ts = nil
				break
			}
			ts = append(ts, t)
		}
		if ts != nil {
			return ts, nil
		}
	}
	ts, err := db.solve(ctx, pair)
	if err != nil {
		return nil, err
	}
	if store != nil {
		for _, t := range ts {
			if err := store.Save(t); err != nil {
				return nil, err
			}
		}
	}
	return ts, nil
}

// Solving state of one position, in cell: 0 while open, else final.
const (
	cellOpen = 0
	cellDraw = 1
	// cellLoss+2d: lost in d plies; cellWin+2d: won in d plies.
	cellLoss = 2
	cellWin  = 3
)

// Flags in cnt beside the count of open moves (bits 0-13).
const (
	cntDraw    = 1 << 15 // a move leads out of the pair to a draw
	cntWinning = 1 << 14 // a move leads out of the pair to a loss for them
	cntMask    = cntWinning - 1
)

// side is the solving state of one slice of a pair.
type side struct {
	t        *Table
	x        *Indexer
	cell     []uint16
	cnt      []uint16
	maxWin   []uint16 // the longest win for them among the moves seen
	done     []uint64 // bitset: predecessors already visited
	partner  int
	material Material
}

// solver solves one pair.
type solver struct {
	db      *DB
	v       *movegen.Variant
	sides   []*side
	buckets [][]uint64 // by distance: side<<40 | index
	exact   bool       // distances are exact (small slices)
	buf     [movegen.MaxMoves]movegen.Move
}

func (db *DB) solve(ctx context.Context, pair []Material) ([]*Table, error) {
	s := &solver{db: db, v: db.Variant, exact: pair[0].Pieces() <= DistPieces}
	for k, m := range pair {
		t := newTable(db.Variant, m)
		n := t.Size()
		s.sides = append(s.sides, &side{
			t: t, x: t.x, material: m, partner: (k + 1) % len(pair),
			cell: make([]uint16, n), cnt: make([]uint16, n), maxWin: make([]uint16, n),
			done: make([]uint64, (n+63)/64),
		})
	}
	for k, sd := range s.sides {
		for i := range sd.x.Size() {
			s.init(k, i)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	for d := 0; d < len(s.buckets); d++ {
		for j := 0; j < len(s.buckets[d]); j++ {
			e := s.buckets[d][j]
			s.settle(int(e>>40), int64(e&(1<<40-1)), d)
		}
		s.buckets[d] = nil
		if d&15 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	var ts []*Table
	for _, sd := range s.sides {
		for i, c := range sd.cell {
			v := Value{WDL: Draw}
			switch {
			case c >= cellLoss && c&1 == 0:
				v = Value{WDL: Loss, Dist: int(c-cellLoss) / 2}
			case c >= cellWin:
				v = Value{WDL: Win, Dist: int(c-cellWin) / 2}
			}
			if s.exact && v.Dist > 255 {
				return nil, fmt.Errorf("egdb: %s %v: a distance of %d plies does not fit the format", s.v.Name, sd.material, v.Dist)
			}
			sd.t.set(int64(i), v)
		}
		ts = append(ts, sd.t)
	}
	return ts, nil
}

func (s *solver) push(d int, k int, i int64) {
	for len(s.buckets) <= d {
		s.buckets = append(s.buckets, nil)
	}
	s.buckets[d] = append(s.buckets[d], uint64(k)<<40|uint64(i))
}

// outside returns the value of q (Black to move), reached by a capture or
// a promotion, from the finished tables.
func (s *solver) outside(q *movegen.Position) Value {
	if q.Pieces[movegen.Black] == 0 {
		return Value{WDL: Loss, Dist: 0}
	}
	v, ok := s.db.Probe(q)
	if !ok {
		panic(fmt.Sprintf("egdb: %v missing while solving", MaterialOf(q)))
	}
	if !s.exact {
		v.Dist = 0
	}
	return v
}

// init looks at every move of position i of side k once.
func (s *solver) init(k int, i int64) {
	sd := s.sides[k]
	p := sd.x.Position(i)
	moves := s.v.Generate(&p, s.buf[:0])
	if len(moves) == 0 {
		sd.cell[i] = cellLoss
		s.push(0, k, i)
		return
	}
	partner := s.sides[sd.partner].material
	var cnt uint16
	win := -1
	maxWin := 0
	var q movegen.Position
	for _, m := range moves {
		p.PlayInto(m, &q)
		if !m.IsCapture() && !m.Promotes() {
			cnt++
			continue
		}
		_ = partner
		v := s.outside(&q)
		switch v.WDL {
		case Loss:
			if win < 0 || v.Dist+1 < win {
				win = v.Dist + 1
			}
		case Win:
			maxWin = max(maxWin, v.Dist)
		default:
			cnt |= cntDraw
		}
	}
	sd.maxWin[i] = uint16(maxWin)
	if win >= 0 {
		cnt |= cntWinning
		s.push(win, k, i)
	}
	sd.cnt[i] = cnt
	if cnt&(cntMask|cntWinning) == 0 {
		if cnt&cntDraw != 0 {
			sd.cell[i] = cellDraw
		} else {
			sd.cell[i] = cellLoss + 2*uint16(maxWin+1)
			s.push(maxWin+1, k, i)
		}
	}
}

// settle takes position i of side k off bucket d: its value is now final
// at distance d, and its predecessors learn of it.
func (s *solver) settle(k int, i int64, d int) {
	sd := s.sides[k]
	if sd.done[i>>6]&(1<<(i&63)) != 0 {
		return
	}
	c := sd.cell[i]
	switch {
	case c == cellOpen: // a win through a move out of the pair
		c = cellWin + 2*uint16(d)
		sd.cell[i] = c
	case c == cellDraw:
		return
	case c >= cellLoss && c&1 == 0 && int(c-cellLoss)/2 == d,
		c >= cellWin && c&1 == 1 && int(c-cellWin)/2 == d:
	default:
		return // settled earlier at a smaller distance
	}
	sd.done[i>>6] |= 1 << (i & 63)
	lost := c&1 == 0
	pk := sd.partner
	ps := s.sides[pk]
	s.predecessors(sd, i, func(j int64) {
		if ps.cell[j] != cellOpen {
			return
		}
		if lost {
			ps.cell[j] = cellWin + 2*uint16(d+1)
			s.push(d+1, pk, j)
			return
		}
		ps.cnt[j]--
		ps.maxWin[j] = max(ps.maxWin[j], uint16(d))
		if ps.cnt[j]&(cntMask|cntWinning) == 0 {
			if ps.cnt[j]&cntDraw != 0 {
				ps.cell[j] = cellDraw
				return
			}
			l := int(ps.maxWin[j]) + 1
			ps.cell[j] = cellLoss + 2*uint16(l)
			s.push(l, pk, j)
		}
	})
}

// predecessors calls f with the index, in the partner slice, of every
// position from which Black's quiet move led to position i of sd (White
// to move): each black piece is moved back and the result kept if Black
// had no capture there (else the quiet move was not legal).
func (s *solver) predecessors(sd *side, i int64, f func(int64)) {
	x := sd.x.Position(i)
	ps := s.sides[sd.partner]
	empty := x.Empty()
	for b := x.Pieces[movegen.Black]; b != 0; b &= b - 1 {
		to := b.First()
		king := x.Kings.Has(to)
		var from movegen.Bitboard
		if king {
			from = movegen.KingReach(to, empty)
		} else {
			// Black men move down the board (+4, +5): they came from above.
			from = (to.Bit()>>4 | to.Bit()>>5) & empty & movegen.Valid
		}
		for o := from; o != 0; o &= o - 1 {
			p := x
			moved := to.Bit() | o&-o
			p.Pieces[movegen.Black] ^= moved
			if king {
				p.Kings ^= moved
			}
			p.Side = movegen.Black
			if s.v.HasCapture(&p) {
				continue
			}
			q := flip(&p)
			f(ps.x.Index(&q))
		}
	}
}
