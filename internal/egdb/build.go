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
				ts, err := db.pair(gctx, pair, opt.Store, opt.Threads)
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
func (db *DB) pair(ctx context.Context, pair []Material, store Store, threads int) ([]*Table, error) {
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
	ts, err := db.solve(ctx, pair, threads)
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

// Solving state of one position, in cell: 0 while open (no result
// known), else a result: final once the position is settled (its bit in
// side.done), until then a win may still shorten.
const (
	cellOpen = 0
	cellDraw = 1
	// cellLoss+2d: lost in d plies; cellWin+2d: won in d plies.
	cellLoss = 2
	cellWin  = 3
)

func isWin(c uint16) bool  { return c >= cellWin && c&1 == 1 }
func isLoss(c uint16) bool { return c >= cellLoss && c&1 == 0 }
func dist(c uint16) int    { return int(c-cellLoss) / 2 }

// cntDraw flags, beside the count of open moves, a move that leads out of
// the pair to a draw: the position cannot be lost.
const (
	cntDraw = 1 << 15
	cntMask = cntDraw - 1
)

// side is the solving state of one slice of a pair.
type side struct {
	t      *Table
	x      *Indexer
	cell   []uint16
	cnt    []uint16
	maxWin []uint16 // the longest win for them among the moves settled
	done   []uint64 // bitset: settled
	// quiet is a bitset: the position's moves are not captures. Only such
	// a position can be the predecessor of a quiet move (captures are
	// forced), so it stands in for looking for captures there again.
	quiet    []uint64
	partner  int
	material Material
}

func (sd *side) settled(i int64) bool { return sd.done[i>>6]&(1<<(i&63)) != 0 }

// solver solves one pair.
type solver struct {
	db      *DB
	v       *movegen.Variant
	sides   []*side
	buckets [][]uint32 // by distance: side<<31 | index (4 bytes: the queue is most of a build's memory)
	exact   bool       // distances are exact (small slices)
}

// initChunk is how many positions one forward-pass task takes.
const initChunk = 1 << 16

func (db *DB) solve(ctx context.Context, pair []Material, threads int) ([]*Table, error) {
	s := &solver{db: db, v: db.Variant, exact: pair[0].Pieces() <= DistPieces}
	for k, m := range pair {
		t := newTable(db.Variant, m)
		n := t.Size()
		if n >= 1<<31 {
			return nil, fmt.Errorf("egdb: %v: %d positions, more than a queue entry can name", m, n)
		}
		s.sides = append(s.sides, &side{
			t: t, x: t.x, material: m, partner: (k + 1) % len(pair),
			cell: make([]uint16, n), cnt: make([]uint16, n), maxWin: make([]uint16, n),
			done: make([]uint64, (n+63)/64), quiet: make([]uint64, (n+63)/64),
		})
	}
	// The forward pass, in parallel over index chunks; each chunk keeps
	// its own bucket entries, merged in chunk order (the result does not
	// depend on the order, but a fixed one keeps runs alike).
	type chunk struct {
		k        int
		from, to int64
		pushes   [][]uint32
	}
	var chunks []*chunk
	for k, sd := range s.sides {
		for from := int64(0); from < sd.x.Size(); from += initChunk {
			chunks = append(chunks, &chunk{k: k, from: from, to: min(from+initChunk, sd.x.Size())})
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(threads, 1))
	for _, c := range chunks {
		g.Go(func() error {
			if gctx.Err() != nil {
				return gctx.Err()
			}
			c.pushes = s.initRange(c.k, c.from, c.to)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	// Merged into buckets of the exact size, each chunk's freed as it goes.
	var sizes []int
	for _, c := range chunks {
		for d, b := range c.pushes {
			for len(sizes) <= d {
				sizes = append(sizes, 0)
			}
			sizes[d] += len(b)
		}
	}
	s.buckets = make([][]uint32, len(sizes))
	for d, n := range sizes {
		s.buckets[d] = make([]uint32, 0, n)
	}
	for _, c := range chunks {
		for d, b := range c.pushes {
			s.buckets[d] = append(s.buckets[d], b...)
		}
		c.pushes = nil
	}
	for d := 0; d < len(s.buckets); d++ {
		for j := 0; j < len(s.buckets[d]); j++ {
			e := s.buckets[d][j]
			s.settle(int(e>>31), int64(e&(1<<31-1)), d)
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
			case isLoss(c):
				v = Value{WDL: Loss, Dist: dist(c)}
			case isWin(c):
				v = Value{WDL: Win, Dist: dist(c)}
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

func (s *solver) push(d int, k int, i int64) { enqueue(&s.buckets, d, k, i) }

// enqueue appends position i of side k to the distance-d list of queue.
func enqueue(queue *[][]uint32, d int, k int, i int64) {
	for len(*queue) <= d {
		*queue = append(*queue, nil)
	}
	(*queue)[d] = append((*queue)[d], uint32(k)<<31|uint32(i))
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

// initRange looks once at every move of positions from-to of side k and
// returns the bucket entries it makes (by distance). Each position's own
// state is written by this call only.
func (s *solver) initRange(k int, from, to int64) [][]uint32 {
	sd := s.sides[k]
	var pushes [][]uint32
	push := func(d int, i int64) { enqueue(&pushes, d, k, i) }
	var buf [movegen.MaxMoves]movegen.Move
	var dec decoder
	var q movegen.Position
	for i := from; i < to; i++ {
		p := dec.position(sd.x, i)
		moves := s.v.Generate(&p, buf[:0])
		if len(moves) == 0 {
			sd.cell[i] = cellLoss
			push(0, i)
			continue
		}
		if !moves[0].IsCapture() {
			// Chunks start at multiples of 64: no other task writes this word.
			sd.quiet[i>>6] |= 1 << (i & 63)
		}
		var cnt uint16
		win := -1
		maxWin := 0
		for _, m := range moves {
			if !m.IsCapture() && !m.Promotes() {
				cnt++ // stays in the pair: counted, solved below
				continue
			}
			p.PlayInto(m, &q)
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
		sd.cnt[i] = cnt
		switch {
		case win >= 0: // a win, perhaps shortened by a move inside the pair
			sd.cell[i] = cellWin + 2*uint16(win)
			push(win, i)
		case cnt == cntDraw:
			sd.cell[i] = cellDraw
		case cnt == 0:
			sd.cell[i] = cellLoss + 2*uint16(maxWin+1)
			push(maxWin+1, i)
		}
	}
	return pushes
}

// settle takes position i of side k off bucket d: its value is final at
// distance d (unless the entry is stale), and its predecessors learn of it.
func (s *solver) settle(k int, i int64, d int) {
	sd := s.sides[k]
	c := sd.cell[i]
	if sd.settled(i) || c == cellOpen || c == cellDraw || dist(c) != d {
		return // settled already, or the entry of a win since shortened
	}
	sd.done[i>>6] |= 1 << (i & 63)
	lost := isLoss(c)
	pk := sd.partner
	ps := s.sides[pk]
	s.predecessors(sd, i, func(j int64) {
		if ps.quiet[j>>6]&(1<<(j&63)) == 0 || ps.settled(j) {
			return // j's moves are captures, or j is settled
		}
		pc := ps.cell[j]
		if lost {
			// j wins in d+1, unless it already wins as fast.
			if pc == cellOpen || isWin(pc) && dist(pc) > d+1 {
				ps.cell[j] = cellWin + 2*uint16(d+1)
				s.push(d+1, pk, j)
			}
			return
		}
		if pc != cellOpen {
			return // a win already: its count no longer matters
		}
		ps.cnt[j]--
		ps.maxWin[j] = max(ps.maxWin[j], uint16(d))
		switch ps.cnt[j] {
		case cntDraw:
			ps.cell[j] = cellDraw
		case 0:
			l := int(ps.maxWin[j]) + 1
			ps.cell[j] = cellLoss + 2*uint16(l)
			s.push(l, pk, j)
		}
	})
}

// decoder turns consecutive indices into positions, decoding the men and
// the white kings only when they change.
type decoder struct {
	x      *Indexer
	prefix int64 // index / kingsB of the cached part, -1: none
	base   movegen.Position
	empty  uint32 // squares free for the black kings
}

func (dc *decoder) position(x *Indexer, i int64) movegen.Position {
	prefix := i / x.kingsB
	if dc.x != x || dc.prefix != prefix {
		dc.x, dc.prefix = x, prefix
		dc.base = x.Position(prefix * x.kingsB)
		bk := dc.base.KingsOf(movegen.Black) // added back per index below
		dc.base.Pieces[movegen.Black] &^= bk
		dc.base.Kings &^= bk
		dc.empty = ^dense(dc.base.Occupied())
	}
	p := dc.base
	if x.M.ThemKings > 0 {
		bk := ghost(unrankSet(i%x.kingsB, x.M.ThemKings, dc.empty))
		p.Pieces[movegen.Black] |= bk
		p.Kings |= bk
	}
	return p
}

// predecessors calls f with the index, in the partner slice, of every
// position from which a quiet move of Black could lead to position i of sd
// (White to move): each black piece is moved back. The move was legal
// only if Black had no capture there; the caller knows that from its
// quiet bitset.
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
			q := flip(&p)
			f(ps.x.Index(&q))
		}
	}
}
