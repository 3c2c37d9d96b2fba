package egdb

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sync"
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
	// Keep, when set, limits a build to the slices it keeps (with their
	// swapped partners): every slice a kept one's captures and promotions
	// lead to must be kept too. A test's small set: the smaller slices and
	// one larger ending.
	Keep func(Material) bool
}

// Store keeps tables between builds (a directory of files, see Dir).
type Store interface {
	// Load returns the stored table of m, nil if there is none, or an
	// error if one is there but unusable.
	Load(v *movegen.Variant, m Material) (*Table, error)
	Save(t *Table) error
}

// Slices returns every slice of up to pieces pieces with at least one
// piece a side, by pieces, then men, then material: an order in which a
// slice comes after every slice its captures and promotions lead to.
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
	if opt.Keep != nil {
		all = slices.DeleteFunc(all, func(m Material) bool { return !opt.Keep(m) && !opt.Keep(m.Swap()) })
	}
	var total, done int64
	for _, m := range all {
		total += NewIndexer(m).Size()
	}
	// Pairs are solved as soon as the slices their captures and
	// promotions lead to are: a pair waits for every slice with fewer
	// pieces and for the pair its promotions lead to, not for a whole
	// level. Of the pairs ready, the largest is taken first (longest
	// processing time first), so that no thread idles at the end while
	// one finishes a large pair.
	type job struct {
		pair       []Material
		size       int64
		deps       []*job
		waiting    int    // deps not done yet
		dependents []*job // jobs waiting for this one
	}
	var jobs []*job
	byMaterial := map[Material]*job{}
	fewer := map[int][]*job{} // by pieces
	for _, m := range all {
		if byMaterial[m] != nil {
			continue
		}
		j := &job{pair: []Material{m}}
		if m != m.Swap() {
			j.pair = append(j.pair, m.Swap())
		}
		for _, s := range j.pair {
			j.size += NewIndexer(s).Size()
			byMaterial[s] = j
			if s.UsMen > 0 {
				// A promotion leaves a king for a man, seen here from
				// the side that moved; the position (Black to move) is in
				// the swapped slice, and both slices of a pair map to its
				// job. It has one man fewer, so it came earlier.
				promoted := Material{s.UsKings + 1, s.UsMen - 1, s.ThemKings, s.ThemMen}
				dep := byMaterial[promoted]
				if dep == nil && opt.Keep != nil {
					return nil, fmt.Errorf("egdb: %v is kept but not %v, where its promotions lead", s, promoted)
				}
				if dep == nil {
					panic(fmt.Sprintf("egdb: %v: promotions lead to %v, not scheduled before it", s, promoted))
				}
				j.deps = append(j.deps, dep)
			}
		}
		for n := 2; n < m.Pieces(); n++ {
			j.deps = append(j.deps, fewer[n]...)
		}
		for _, d := range j.deps {
			d.dependents = append(d.dependents, j)
		}
		j.waiting = len(j.deps)
		fewer[m.Pieces()] = append(fewer[m.Pieces()], j)
		jobs = append(jobs, j)
	}
	var (
		mu    sync.Mutex // the fields below, db.put
		cond  = sync.NewCond(&mu)
		ready []*job // deps done, not started
		left  = len(jobs)
	)
	for _, j := range jobs {
		if j.waiting == 0 {
			ready = append(ready, j)
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	defer context.AfterFunc(gctx, func() {
		mu.Lock()
		cond.Broadcast() // wake the idle threads to see the cancel
		mu.Unlock()
	})()
	for range max(opt.Threads, 1) {
		g.Go(func() error {
			for {
				mu.Lock()
				for len(ready) == 0 && left > 0 && gctx.Err() == nil {
					cond.Wait()
				}
				if left == 0 || gctx.Err() != nil {
					mu.Unlock()
					return gctx.Err()
				}
				// The largest ready pair (the first of equals in
				// build order, so runs are alike).
				k := 0
				for i, r := range ready {
					if r.size > ready[k].size {
						k = i
					}
				}
				j := ready[k]
				ready = slices.Delete(ready, k, k+1)
				mu.Unlock()

				ts, err := db.pair(gctx, j.pair, opt.Store, opt.Threads)
				if err != nil {
					return err
				}
				for _, t := range ts {
					if t.M.Pieces() <= directPieces && min(pieces, blockPieces) > directPieces {
						t.fillDirect() // for the block solver's lookups
					}
				}
				mu.Lock()
				for _, t := range ts {
					db.put(t)
				}
				left--
				for _, d := range j.dependents {
					if d.waiting--; d.waiting == 0 {
						ready = append(ready, d)
					}
				}
				cond.Broadcast()
				mu.Unlock()
				if opt.Progress != nil {
					var n int64
					for _, t := range ts {
						n += t.Size()
					}
					opt.Progress(atomic.AddInt64(&done, n), total)
				}
			}
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for _, t := range db.tables {
		t.direct = nil // the search probes by index
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
// known), else a result: final once the position is settled (cntDone),
// until then a win may still shorten.
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

// state is one position's solving state. The three words sit together
// because the backward pass reaches positions in no useful order: one
// cache line per predecessor (two, for 2 positions in 32) instead of one
// per array.
type state struct {
	cell uint16
	// cnt: the count of open moves (cntMask) and flags.
	cnt uint16
	// maxWin: the longest win for them among the moves settled.
	maxWin uint16
}

const (
	// cntDraw: a move leads out of the pair to a draw, so the position
	// cannot be lost.
	cntDraw = 1 << 15
	// cntDone: settled.
	cntDone = 1 << 14
	// cntQuiet: the position's moves are not captures. Only such a
	// position can be the predecessor of a quiet move (captures are
	// forced), so it stands in for looking for captures there again.
	cntQuiet = 1 << 13
	cntMask  = cntQuiet - 1 // no position has 8k moves
)

// side is the solving state of one slice of a pair.
type side struct {
	t  *Table
	x  *Indexer
	st []state
	// packed holds each position's squares (see pack) where memory
	// allows: the backward pass then reads a position instead of
	// decoding its index, which costs more than the rest of its work.
	packed   []uint32
	partner  int
	material Material
}

// solver solves one pair.
type solver struct {
	db      *DB
	v       *movegen.Variant
	sides   []*side
	buckets [][]uint32 // by distance: side<<31 | index (4 bytes: the queue is most of a build's memory)
	exact   bool       // distances are exact (small slices)
	touched uint32     // keeps the look-ahead loads from being optimized away
	// Scratch for settle.
	preds [maxPredecessors]int64
	flags [maxPredecessors]uint16
}

// initChunk is how many positions one forward-pass task takes.
const initChunk = 1 << 16

// blockPieces bounds the slices solved by blocks (solveBlocks, the
// built-in 4-piece set); larger ones are solved position by position.
// Tests lower it to compare the two solvers.
var blockPieces = DefaultPieces

func (db *DB) solve(ctx context.Context, pair []Material, threads int) ([]*Table, error) {
	if pair[0].Pieces() <= min(blockPieces, DistPieces) {
		return db.solveBlocks(ctx, pair, threads)
	}
	s := &solver{db: db, v: db.Variant, exact: pair[0].Pieces() <= DistPieces}
	for k, m := range pair {
		t := newTable(db.Variant, m)
		n := t.Size()
		if n >= 1<<31 {
			return nil, fmt.Errorf("egdb: %v: %d positions, more than a queue entry can name", m, n)
		}
		sd := &side{t: t, x: t.x, material: m, partner: (k + 1) % len(pair), st: make([]state, n)}
		if m.Pieces() <= packPieces {
			sd.packed = make([]uint32, n)
		}
		s.sides = append(s.sides, sd)
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
	var pace pacer
	for d := 0; d < len(s.buckets); d++ {
		b := s.buckets[d]
		var touched uint32
		for j, e := range b {
			pace.tick()
			// Load a later entry's state and position now, so that its
			// cache misses overlap this entry's work.
			if j+8 < len(b) {
				ahead := b[j+8]
				sd := s.sides[ahead>>31]
				i := ahead & (1<<31 - 1)
				touched += uint32(sd.st[i].cell)
				if sd.packed != nil {
					touched += sd.packed[i]
				}
			}
			s.settle(int(e>>31), int64(e&(1<<31-1)), d)
		}
		s.touched += touched
		s.buckets[d] = nil
		if d&15 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	var ts []*Table
	for _, sd := range s.sides {
		for i := range sd.st {
			pace.tick()
			c := sd.st[i].cell
			v := Value{WDL: Draw}
			switch {
			case isLoss(c):
				v = Value{WDL: Loss, Dist: dist(c)}
			case isWin(c):
				v = Value{WDL: Win, Dist: dist(c)}
			}
			if s.exact && v.Dist > maxDist {
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
	// q (Black to move) is looked up as its turned twin, whose white
	// pieces are q's black ones.
	wm, wk, bm, bk := denseGroups(q)
	v := s.db.solved(&[4]uint32{bm, bk, wm, wk}, true)
	if !s.exact {
		v.Dist = 0
	}
	return v
}

// solved returns, while solving, the value of a position in a finished
// table. c holds the dense groups of the side to move (men, kings), then
// of the other side, as they stand on the board; turned says the side to
// move is Black, so that the table holds the position turned. A side to
// move without pieces has lost.
func (db *DB) solved(c *[4]uint32, turned bool) Value {
	if c[gWM]|c[gWK] == 0 {
		return Value{WDL: Loss, Dist: 0}
	}
	m := Material{bits.OnesCount32(c[gWK]), bits.OnesCount32(c[gWM]), bits.OnesCount32(c[gBK]), bits.OnesCount32(c[gBM])}
	t := db.Table(m)
	if t == nil {
		panic(fmt.Sprintf("egdb: %v missing while solving", m))
	}
	if t.direct != nil {
		if turned {
			return t.valueOf(t.direct[turnedAddress(c)])
		}
		return t.valueOf(t.direct[directAddress(c)])
	}
	g := *c
	if turned {
		for i := range g {
			g[i] = bits.Reverse32(g[i])
		}
	}
	return t.At(t.x.indexDense(g[0], g[1], g[2], g[3]))
}

// outcome gathers the values of a position's moves out of its pair: the
// quickest loss for the opponent (win, -1 if none), the slowest win for
// them (maxWin), and whether one draws.
type outcome struct {
	win, maxWin int
	draw        bool
}

func newOutcome() outcome { return outcome{win: -1} }

// add takes in the value of one move's position (for the opponent).
func (o *outcome) add(v Value) {
	switch v.WDL {
	case Loss:
		if o.win < 0 || v.Dist+1 < o.win {
			o.win = v.Dist + 1
		}
	case Win:
		o.maxWin = max(o.maxWin, v.Dist)
	default:
		o.draw = true
	}
}

// initRange looks once at every move of positions from-to of side k and
// returns the bucket entries it makes (by distance). Each position's own
// state is written by this call only.
func (s *solver) initRange(k int, from, to int64) [][]uint32 {
	sd := s.sides[k]
	var pushes [][]uint32
	push := func(d int, i int64) { enqueue(&pushes, d, k, i) }
	var buf [movegen.MaxMoves]movegen.Move
	var w walker
	var q movegen.Position
	w.seek(sd.x, from)
	var pace pacer
	for i := from; i < to; i++ {
		pace.tick()
		p := w.position()
		if sd.packed != nil {
			sd.packed[i] = pack(&p)
		}
		w.next()
		st := &sd.st[i]
		// The moves out of the pair are looked up; those inside counted.
		out := newOutcome()
		var cnt uint16
		see := func(m movegen.Move) {
			p.PlayInto(m, &q)
			out.add(s.outside(&q))
		}
		if s.v.HasCapture(&p) {
			// Captures only, all leaving the pair.
			for _, m := range s.v.Generate(&p, buf[:0]) {
				see(m)
			}
		} else {
			// Quiet moves are counted without listing them; only a man's
			// step onto the last row (a promotion) leaves the pair.
			cnt = cntQuiet
			empty := p.Empty()
			men := p.Men(movegen.White)
			up5, up4 := men>>5&empty, men>>4&empty // white men step to lower bits
			n := (up5 &^ movegen.Row0).Count() + (up4 &^ movegen.Row0).Count()
			for kings := p.KingsOf(movegen.White); kings != 0; kings &= kings - 1 {
				n += movegen.KingReach(kings.First(), empty).Count()
			}
			cnt += uint16(n)
			for t := up5 & movegen.Row0; t != 0; t &= t - 1 {
				see(movegen.NewMove(t.First()+5, t.First(), 0, true))
			}
			for t := up4 & movegen.Row0; t != 0; t &= t - 1 {
				see(movegen.NewMove(t.First()+4, t.First(), 0, true))
			}
			if n == 0 && (up5|up4)&movegen.Row0 == 0 {
				st.cell = cellLoss // no move at all
				push(0, i)
				continue
			}
		}
		if out.draw {
			cnt |= cntDraw
		}
		st.maxWin = uint16(out.maxWin)
		st.cnt = cnt
		switch open := cnt & cntMask; {
		case out.win >= 0: // a win, perhaps shortened by a move inside the pair
			st.cell = cellWin + 2*uint16(out.win)
			push(out.win, i)
		case open == 0 && cnt&cntDraw != 0:
			st.cell = cellDraw
		case open == 0:
			st.cell = cellLoss + 2*uint16(out.maxWin+1)
			push(out.maxWin+1, i)
		}
	}
	return pushes
}

// settle takes position i of side k off bucket d: its value is final at
// distance d (unless the entry is stale), and its predecessors learn of it.
func (s *solver) settle(k int, i int64, d int) {
	sd := s.sides[k]
	st := &sd.st[i]
	c := st.cell
	if st.cnt&cntDone != 0 || c == cellOpen || c == cellDraw || dist(c) != d {
		return // settled already, or the entry of a win since shortened
	}
	st.cnt |= cntDone
	lost := isLoss(c)
	pk := sd.partner
	ps := s.sides[pk]
	js := s.predecessors(sd, i, s.preds[:0])
	// Their flags first, in a loop of independent loads, so the cache
	// misses overlap; the loop below then finds the states in cache.
	flags := &s.flags
	for n, j := range js {
		flags[n] = ps.st[j].cnt
	}
	for n, j := range js {
		if flags[n]&(cntQuiet|cntDone) != cntQuiet {
			continue // j's moves are captures, or j is settled
		}
		pst := &ps.st[j]
		pc := pst.cell
		if lost {
			// j wins in d+1, unless it already wins as fast.
			if pc == cellOpen || isWin(pc) && dist(pc) > d+1 {
				pst.cell = cellWin + 2*uint16(d+1)
				s.push(d+1, pk, j)
			}
			continue
		}
		if pc != cellOpen {
			continue // a win already: its count no longer matters
		}
		pst.cnt--
		pst.maxWin = max(pst.maxWin, uint16(d))
		switch pst.cnt &^ cntQuiet {
		case cntDraw:
			pst.cell = cellDraw
		case 0:
			l := int(pst.maxWin) + 1
			pst.cell = cellLoss + 2*uint16(l)
			s.push(l, pk, j)
		}
	}
}

// maxPredecessors bounds the quiet moves into one position: 6 kings
// reaching 13 squares each at most.
const maxPredecessors = MaxPieces * 13

// packPieces bounds the slices whose pairs keep packed positions. The
// limit is memory: 4 more bytes per position are a third more for a
// 6-piece pair, and a 6-piece build already peaks at 6 GB. (Packing itself fits up to 6
// pieces, 5 bits each, in 32 bits; the constant below fails to compile
// beyond that.)
const packPieces = 5

const _ = uint(32 - 5*packPieces)

// pack returns p's squares (dense, 5 bits each) in the order black men,
// white men, white kings, black kings, each group from its lowest square.
func pack(p *movegen.Position) uint32 {
	var v uint32
	sh := 0
	for _, g := range [4]movegen.Bitboard{p.Men(movegen.Black), p.Men(movegen.White), p.KingsOf(movegen.White), p.KingsOf(movegen.Black)} {
		for d := dense(g); d != 0; d &= d - 1 {
			v |= uint32(bits.TrailingZeros32(d)) << sh
			sh += 5
		}
	}
	return v
}

// sets returns position i of sd as dense sets: white men, white kings,
// black men, black kings.
func (sd *side) sets(i int64) (wm, wk, bm, bk uint32) {
	if sd.packed == nil {
		p := sd.x.Position(i)
		return denseGroups(&p)
	}
	v := sd.packed[i]
	m := &sd.material
	bm, v = unpack(v, m.ThemMen)
	wm, v = unpack(v, m.UsMen)
	wk, v = unpack(v, m.UsKings)
	bk, _ = unpack(v, m.ThemKings)
	return wm, wk, bm, bk
}

// unpack takes n squares off packed and returns them as a dense set, and
// what is left.
func unpack(packed uint32, n int) (set, rest uint32) {
	for range n {
		set |= 1 << (packed & 31)
		packed >>= 5
	}
	return set, packed
}

// manFrom[s] holds the dense squares a white man reaching dense square s
// with a step came from (white men step to lower squares).
var manFrom = func() (t [32]uint32) {
	for s := range t {
		t[s] = dense((ghostSquare[s]<<4 | ghostSquare[s]<<5) & movegen.Valid)
	}
	return t
}()

// predecessors appends to js the index, in the partner slice, of every
// position from which a quiet move of Black could lead to position i of sd
// (White to move): each black piece is moved back. The move was legal
// only if Black had no capture there; the caller knows that from cntQuiet.
//
// The predecessor, Black to move, is numbered as its flipped twin, so the
// work is done in the partner's frame: the board turned (a dense set turns
// by reversing its bits), where the side that moved is White. Its index
// is computed from dense sets, the moved group and those after it only.
func (s *solver) predecessors(sd *side, i int64, js []int64) []int64 {
	ourWM, ourWK, ourBM, ourBK := sd.sets(i)
	px := s.sides[sd.partner].x
	wm, wk := bits.Reverse32(ourBM), bits.Reverse32(ourBK) // the side that moved
	bm, bk := bits.Reverse32(ourWM), bits.Reverse32(ourWK)
	base := px.menOffset[rankSet(bm, blackMenSquares)]
	menWithin := whiteMenSquares &^ bm
	emptyMen := ^(wm | bm)
	empty := emptyMen &^ (wk | bk)
	for b := wm; b != 0; b &= b - 1 {
		from := manFrom[bits.TrailingZeros32(b)] & empty
		for ; from != 0; from &= from - 1 {
			wm2 := wm ^ b&-b ^ from&-from
			e := ^(wm2 | bm)
			js = append(js, ((base+rankSet(wm2, menWithin))*px.kingsW+rankSet(wk, e))*px.kingsB+rankSet(bk, e&^wk))
		}
	}
	if wk == 0 {
		return js
	}
	men := (base + rankSet(wm, menWithin)) * px.kingsW
	gEmpty := ghost(empty)
	for b := wk; b != 0; b &= b - 1 {
		others := wk ^ b&-b
		reach := dense(movegen.KingReach(ghostSquare[bits.TrailingZeros32(b)].First(), gEmpty))
		for ; reach != 0; reach &= reach - 1 {
			wk2 := others | reach&-reach
			js = append(js, (men+rankSet(wk2, emptyMen))*px.kingsB+rankSet(bk, emptyMen&^wk2))
		}
	}
	return js
}
